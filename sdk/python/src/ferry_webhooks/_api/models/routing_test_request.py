from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.routing_test_request_headers import RoutingTestRequestHeaders
  from ..models.routing_test_request_query import RoutingTestRequestQuery





T = TypeVar("T", bound="RoutingTestRequest")



@_attrs_define
class RoutingTestRequest:
    """ 
        Attributes:
            headers (RoutingTestRequestHeaders | Unset): lower-cased names; repeated headers joined by ", "
            method (str | Unset): the HTTP method, e.g. POST
            path (str | Unset): the request path, e.g. /in/{token}
            query (RoutingTestRequestQuery | Unset): first value of each parameter
     """

    headers: RoutingTestRequestHeaders | Unset = UNSET
    method: str | Unset = UNSET
    path: str | Unset = UNSET
    query: RoutingTestRequestQuery | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.routing_test_request_headers import RoutingTestRequestHeaders
        from ..models.routing_test_request_query import RoutingTestRequestQuery
        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        method = self.method

        path = self.path

        query: dict[str, Any] | Unset = UNSET
        if not isinstance(self.query, Unset):
            query = self.query.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if headers is not UNSET:
            field_dict["headers"] = headers
        if method is not UNSET:
            field_dict["method"] = method
        if path is not UNSET:
            field_dict["path"] = path
        if query is not UNSET:
            field_dict["query"] = query

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.routing_test_request_headers import RoutingTestRequestHeaders
        from ..models.routing_test_request_query import RoutingTestRequestQuery
        d = dict(src_dict)
        _headers = d.pop("headers", UNSET)
        headers: RoutingTestRequestHeaders | Unset
        if isinstance(_headers,  Unset):
            headers = UNSET
        else:
            headers = RoutingTestRequestHeaders.from_dict(_headers)




        method = d.pop("method", UNSET)

        path = d.pop("path", UNSET)

        _query = d.pop("query", UNSET)
        query: RoutingTestRequestQuery | Unset
        if isinstance(_query,  Unset):
            query = UNSET
        else:
            query = RoutingTestRequestQuery.from_dict(_query)




        routing_test_request = cls(
            headers=headers,
            method=method,
            path=path,
            query=query,
        )


        routing_test_request.additional_properties = d
        return routing_test_request

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
