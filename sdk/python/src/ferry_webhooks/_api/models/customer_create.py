from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.customer_create_metadata import CustomerCreateMetadata





T = TypeVar("T", bound="CustomerCreate")



@_attrs_define
class CustomerCreate:
    """ 
        Attributes:
            metadata (CustomerCreateMetadata | Unset): string pairs of yours, kept as given
            name (str | Unset): a display name
            uid (str | Unset): your own id for the customer (1-255 characters); it names the customer in every route
     """

    metadata: CustomerCreateMetadata | Unset = UNSET
    name: str | Unset = UNSET
    uid: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer_create_metadata import CustomerCreateMetadata
        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        name = self.name

        uid = self.uid


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if name is not UNSET:
            field_dict["name"] = name
        if uid is not UNSET:
            field_dict["uid"] = uid

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer_create_metadata import CustomerCreateMetadata
        d = dict(src_dict)
        _metadata = d.pop("metadata", UNSET)
        metadata: CustomerCreateMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CustomerCreateMetadata.from_dict(_metadata)




        name = d.pop("name", UNSET)

        uid = d.pop("uid", UNSET)

        customer_create = cls(
            metadata=metadata,
            name=name,
            uid=uid,
        )


        customer_create.additional_properties = d
        return customer_create

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
