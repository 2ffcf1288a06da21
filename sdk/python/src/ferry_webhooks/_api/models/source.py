from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.source_dedupe import SourceDedupe
  from ..models.source_event_type import SourceEventType
  from ..models.source_response import SourceResponse
  from ..models.source_verification import SourceVerification





T = TypeVar("T", bound="Source")



@_attrs_define
class Source:
    """ 
        Attributes:
            created_at (datetime.datetime): when the source was created
            dedupe (None | SourceDedupe): null: no dedupe
            enabled (bool): false: the ingest URL answers 404
            event_type (SourceEventType):
            id (UUID): the source's id
            ingest_url (str): where the provider sends: <public url>/in/<token>; the token is [redacted] for viewers
            last_request_at (datetime.datetime | None): when the source last captured a request (of any status), null if it
                never did: whether the provider is sending.
            name (str): a label of yours
            rate_limit_per_second (int): rate_limit_per_second bounds accepted requests; more are answered 429.
            rejected_unstored (int): rejected requests over the per-minute cap, answered 401 but not stored
            response (None | SourceResponse): null: 200 {} application/json
            updated_at (datetime.datetime): when it last changed
            verification (SourceVerification):
     """

    created_at: datetime.datetime
    dedupe: None | SourceDedupe
    enabled: bool
    event_type: SourceEventType
    id: UUID
    ingest_url: str
    last_request_at: datetime.datetime | None
    name: str
    rate_limit_per_second: int
    rejected_unstored: int
    response: None | SourceResponse
    updated_at: datetime.datetime
    verification: SourceVerification
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.source_dedupe import SourceDedupe
        from ..models.source_event_type import SourceEventType
        from ..models.source_response import SourceResponse
        from ..models.source_verification import SourceVerification
        created_at = self.created_at.isoformat()

        dedupe: dict[str, Any] | None
        if isinstance(self.dedupe, SourceDedupe):
            dedupe = self.dedupe.to_dict()
        else:
            dedupe = self.dedupe

        enabled = self.enabled

        event_type = self.event_type.to_dict()

        id = str(self.id)

        ingest_url = self.ingest_url

        last_request_at: None | str
        if isinstance(self.last_request_at, datetime.datetime):
            last_request_at = self.last_request_at.isoformat()
        else:
            last_request_at = self.last_request_at

        name = self.name

        rate_limit_per_second = self.rate_limit_per_second

        rejected_unstored = self.rejected_unstored

        response: dict[str, Any] | None
        if isinstance(self.response, SourceResponse):
            response = self.response.to_dict()
        else:
            response = self.response

        updated_at = self.updated_at.isoformat()

        verification = self.verification.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "dedupe": dedupe,
            "enabled": enabled,
            "event_type": event_type,
            "id": id,
            "ingest_url": ingest_url,
            "last_request_at": last_request_at,
            "name": name,
            "rate_limit_per_second": rate_limit_per_second,
            "rejected_unstored": rejected_unstored,
            "response": response,
            "updated_at": updated_at,
            "verification": verification,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.source_dedupe import SourceDedupe
        from ..models.source_event_type import SourceEventType
        from ..models.source_response import SourceResponse
        from ..models.source_verification import SourceVerification
        d = dict(src_dict)
        created_at = isoparse(d.pop("created_at"))




        def _parse_dedupe(data: object) -> None | SourceDedupe:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                dedupe_type_0 = SourceDedupe.from_dict(data)



                return dedupe_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceDedupe, data)

        dedupe = _parse_dedupe(d.pop("dedupe"))


        enabled = d.pop("enabled")

        event_type = SourceEventType.from_dict(d.pop("event_type"))




        id = UUID(d.pop("id"))




        ingest_url = d.pop("ingest_url")

        def _parse_last_request_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_request_at_type_0 = isoparse(data)



                return last_request_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_request_at = _parse_last_request_at(d.pop("last_request_at"))


        name = d.pop("name")

        rate_limit_per_second = d.pop("rate_limit_per_second")

        rejected_unstored = d.pop("rejected_unstored")

        def _parse_response(data: object) -> None | SourceResponse:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_type_0 = SourceResponse.from_dict(data)



                return response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceResponse, data)

        response = _parse_response(d.pop("response"))


        updated_at = isoparse(d.pop("updated_at"))




        verification = SourceVerification.from_dict(d.pop("verification"))




        source = cls(
            created_at=created_at,
            dedupe=dedupe,
            enabled=enabled,
            event_type=event_type,
            id=id,
            ingest_url=ingest_url,
            last_request_at=last_request_at,
            name=name,
            rate_limit_per_second=rate_limit_per_second,
            rejected_unstored=rejected_unstored,
            response=response,
            updated_at=updated_at,
            verification=verification,
        )


        source.additional_properties = d
        return source

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
