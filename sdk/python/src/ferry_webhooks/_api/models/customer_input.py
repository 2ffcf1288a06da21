from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.customer_input_metadata import CustomerInputMetadata





T = TypeVar("T", bound="CustomerInput")



@_attrs_define
class CustomerInput:
    """ 
        Attributes:
            metadata (CustomerInputMetadata | Unset): string pairs of yours, replacing the stored ones
            name (str | Unset): a display name
     """

    metadata: CustomerInputMetadata | Unset = UNSET
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer_input_metadata import CustomerInputMetadata
        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        name = self.name


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer_input_metadata import CustomerInputMetadata
        d = dict(src_dict)
        _metadata = d.pop("metadata", UNSET)
        metadata: CustomerInputMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CustomerInputMetadata.from_dict(_metadata)




        name = d.pop("name", UNSET)

        customer_input = cls(
            metadata=metadata,
            name=name,
        )


        customer_input.additional_properties = d
        return customer_input

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
