from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.previous_secret import PreviousSecret





T = TypeVar("T", bound="SecretInfo")



@_attrs_define
class SecretInfo:
    """ 
        Attributes:
            previous (list[PreviousSecret] | None): rotated-out secrets still signing until they expire
            secret (str): current whsec_ secret
     """

    previous: list[PreviousSecret] | None
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.previous_secret import PreviousSecret
        previous: list[dict[str, Any]] | None
        if isinstance(self.previous, list):
            previous = []
            for previous_type_0_item_data in self.previous:
                previous_type_0_item = previous_type_0_item_data.to_dict()
                previous.append(previous_type_0_item)


        else:
            previous = self.previous

        secret = self.secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "previous": previous,
            "secret": secret,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.previous_secret import PreviousSecret
        d = dict(src_dict)
        def _parse_previous(data: object) -> list[PreviousSecret] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                previous_type_0 = []
                _previous_type_0 = data
                for previous_type_0_item_data in (_previous_type_0):
                    previous_type_0_item = PreviousSecret.from_dict(previous_type_0_item_data)



                    previous_type_0.append(previous_type_0_item)

                return previous_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PreviousSecret] | None, data)

        previous = _parse_previous(d.pop("previous"))


        secret = d.pop("secret")

        secret_info = cls(
            previous=previous,
            secret=secret,
        )


        secret_info.additional_properties = d
        return secret_info

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
