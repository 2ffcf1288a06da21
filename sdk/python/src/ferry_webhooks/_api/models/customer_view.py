from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.customer_view_metadata_type_0 import CustomerViewMetadataType0
  from ..models.endpoint_health import EndpointHealth





T = TypeVar("T", bound="CustomerView")



@_attrs_define
class CustomerView:
    """ 
        Attributes:
            created_at (datetime.datetime): when the customer was created
            endpoints (EndpointHealth):
            metadata (CustomerViewMetadataType0 | None): string pairs of yours, kept as given
            name (str): a display name; may be empty
            uid (str): the tenant's id for the customer.
            updated_at (datetime.datetime): when the customer last changed
     """

    created_at: datetime.datetime
    endpoints: EndpointHealth
    metadata: CustomerViewMetadataType0 | None
    name: str
    uid: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer_view_metadata_type_0 import CustomerViewMetadataType0
        from ..models.endpoint_health import EndpointHealth
        created_at = self.created_at.isoformat()

        endpoints = self.endpoints.to_dict()

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, CustomerViewMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name = self.name

        uid = self.uid

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "endpoints": endpoints,
            "metadata": metadata,
            "name": name,
            "uid": uid,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer_view_metadata_type_0 import CustomerViewMetadataType0
        from ..models.endpoint_health import EndpointHealth
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        endpoints = EndpointHealth.from_dict(d.pop("endpoints"))




        def _parse_metadata(data: object) -> CustomerViewMetadataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = CustomerViewMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CustomerViewMetadataType0 | None, data)

        metadata = _parse_metadata(d.pop("metadata"))


        name = d.pop("name")

        uid = d.pop("uid")

        updated_at = isoparse(d.pop("updated_at"))




        customer_view = cls(
            created_at=created_at,
            endpoints=endpoints,
            metadata=metadata,
            name=name,
            uid=uid,
            updated_at=updated_at,
        )


        customer_view.additional_properties = d
        return customer_view

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
