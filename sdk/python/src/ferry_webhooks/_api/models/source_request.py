from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.source_request_status import check_source_request_status
from ..models.source_request_status import SourceRequestStatus
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="SourceRequest")



@_attrs_define
class SourceRequest:
    """ 
        Attributes:
            body_size (int): the body size in bytes
            content_type (str): its Content-Type header
            dedupe_key (None | str): the request's dedupe key, when the source dedupes
            event_id (None | UUID): the event the request became
            id (UUID): the captured request's id
            method (str): the HTTP method
            path (str): the request path with the ingest token written {token}
            query (str): the raw query string
            reason (str): why the request was rejected or is a duplicate
            received_at (datetime.datetime): when it arrived
            source_id (UUID): the source that captured it
            status (SourceRequestStatus): received, verified, rejected, duplicate or refused
     """

    body_size: int
    content_type: str
    dedupe_key: None | str
    event_id: None | UUID
    id: UUID
    method: str
    path: str
    query: str
    reason: str
    received_at: datetime.datetime
    source_id: UUID
    status: SourceRequestStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        body_size = self.body_size

        content_type = self.content_type

        dedupe_key: None | str
        dedupe_key = self.dedupe_key

        event_id: None | str
        if isinstance(self.event_id, UUID):
            event_id = str(self.event_id)
        else:
            event_id = self.event_id

        id = str(self.id)

        method = self.method

        path = self.path

        query = self.query

        reason = self.reason

        received_at = self.received_at.isoformat()

        source_id = str(self.source_id)

        status: str = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "body_size": body_size,
            "content_type": content_type,
            "dedupe_key": dedupe_key,
            "event_id": event_id,
            "id": id,
            "method": method,
            "path": path,
            "query": query,
            "reason": reason,
            "received_at": received_at,
            "source_id": source_id,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body_size = d.pop("body_size")

        content_type = d.pop("content_type")

        def _parse_dedupe_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dedupe_key = _parse_dedupe_key(d.pop("dedupe_key"))


        def _parse_event_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                event_id_type_0 = UUID(data)



                return event_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        event_id = _parse_event_id(d.pop("event_id"))


        id = UUID(d.pop("id"))




        method = d.pop("method")

        path = d.pop("path")

        query = d.pop("query")

        reason = d.pop("reason")

        received_at = isoparse(d.pop("received_at"))




        source_id = UUID(d.pop("source_id"))




        status = check_source_request_status(d.pop("status"))




        source_request = cls(
            body_size=body_size,
            content_type=content_type,
            dedupe_key=dedupe_key,
            event_id=event_id,
            id=id,
            method=method,
            path=path,
            query=query,
            reason=reason,
            received_at=received_at,
            source_id=source_id,
            status=status,
        )


        source_request.additional_properties = d
        return source_request

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
