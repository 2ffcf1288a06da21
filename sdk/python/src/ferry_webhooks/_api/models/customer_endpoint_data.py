from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.customer_user import CustomerUser





T = TypeVar("T", bound="CustomerEndpointData")



@_attrs_define
class CustomerEndpointData:
    """ 
        Attributes:
            customer (str): the customer's uid
            endpoint_id (UUID): the endpoint the user acted on
            external_user (CustomerUser):
            url (str): its URL (empty for a queue)
     """

    customer: str
    endpoint_id: UUID
    external_user: CustomerUser
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer_user import CustomerUser
        customer = self.customer

        endpoint_id = str(self.endpoint_id)

        external_user = self.external_user.to_dict()

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "customer": customer,
            "endpoint_id": endpoint_id,
            "external_user": external_user,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer_user import CustomerUser
        d = dict(src_dict)
        customer = d.pop("customer")

        endpoint_id = UUID(d.pop("endpoint_id"))




        external_user = CustomerUser.from_dict(d.pop("external_user"))




        url = d.pop("url")

        customer_endpoint_data = cls(
            customer=customer,
            endpoint_id=endpoint_id,
            external_user=external_user,
            url=url,
        )


        customer_endpoint_data.additional_properties = d
        return customer_endpoint_data

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
