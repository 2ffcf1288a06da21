from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.attempt_outcome import AttemptOutcome
from ..models.attempt_outcome import check_attempt_outcome
from ..models.attempt_trigger import AttemptTrigger
from ..models.attempt_trigger import check_attempt_trigger
from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.attempt_request_headers import AttemptRequestHeaders
  from ..models.attempt_response_headers_type_0 import AttemptResponseHeadersType0





T = TypeVar("T", bound="Attempt")



@_attrs_define
class Attempt:
    """ 
        Attributes:
            attempt_number (int): 1 for the first attempt, counting on across retries and replays
            delivery_id (UUID): the delivery attempted
            duration_ms (int): how long until the answer (or the error), in ms
            endpoint_id (UUID): the endpoint attempted
            event_id (UUID): the event delivered
            id (UUID): the attempt's id
            next_attempt_at (datetime.datetime | None): when the retry this attempt scheduled is due; null when none
            outcome (AttemptOutcome): success (2xx), retry (scheduled again) or dropped (not retried)
            request_headers (AttemptRequestHeaders): headers sent, custom values redacted for staff
            response_body (str): first 4 KiB
            response_body_truncated (bool): response_body is not the whole body: only the first 4 KiB are kept, and a body
                still arriving at the timeout is cut there
            response_headers (AttemptResponseHeadersType0 | None): the headers answered; null when no answer came
            response_headers_truncated (bool): response_headers_truncated reports that some response header values were left
                out to keep the stored headers within 8 KiB.
            response_status (int | None): the HTTP status answered; null when no answer came
            started_at (datetime.datetime): when the request was sent
            trigger (AttemptTrigger): initial, retry or replay
            actor (str | Unset): who replayed, for replay attempts
            error_class (str | Unset): why no usable answer came: timeout, dns, connection_refused, connection_reset, tls,
                blocked_address, connection, response_too_large (retried); transformation_error, transformation_cancelled (no
                request made, dropped); for queue endpoints timeout (lease ran out), nack, rejected; empty when the receiver
                answered
            error_message (str | Unset): the error in words, when no usable answer came
     """

    attempt_number: int
    delivery_id: UUID
    duration_ms: int
    endpoint_id: UUID
    event_id: UUID
    id: UUID
    next_attempt_at: datetime.datetime | None
    outcome: AttemptOutcome
    request_headers: AttemptRequestHeaders
    response_body: str
    response_body_truncated: bool
    response_headers: AttemptResponseHeadersType0 | None
    response_headers_truncated: bool
    response_status: int | None
    started_at: datetime.datetime
    trigger: AttemptTrigger
    actor: str | Unset = UNSET
    error_class: str | Unset = UNSET
    error_message: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.attempt_request_headers import AttemptRequestHeaders
        from ..models.attempt_response_headers_type_0 import AttemptResponseHeadersType0
        attempt_number = self.attempt_number

        delivery_id = str(self.delivery_id)

        duration_ms = self.duration_ms

        endpoint_id = str(self.endpoint_id)

        event_id = str(self.event_id)

        id = str(self.id)

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        outcome: str = self.outcome

        request_headers = self.request_headers.to_dict()

        response_body = self.response_body

        response_body_truncated = self.response_body_truncated

        response_headers: dict[str, Any] | None
        if isinstance(self.response_headers, AttemptResponseHeadersType0):
            response_headers = self.response_headers.to_dict()
        else:
            response_headers = self.response_headers

        response_headers_truncated = self.response_headers_truncated

        response_status: int | None
        response_status = self.response_status

        started_at = self.started_at.isoformat()

        trigger: str = self.trigger

        actor = self.actor

        error_class = self.error_class

        error_message = self.error_message


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt_number": attempt_number,
            "delivery_id": delivery_id,
            "duration_ms": duration_ms,
            "endpoint_id": endpoint_id,
            "event_id": event_id,
            "id": id,
            "next_attempt_at": next_attempt_at,
            "outcome": outcome,
            "request_headers": request_headers,
            "response_body": response_body,
            "response_body_truncated": response_body_truncated,
            "response_headers": response_headers,
            "response_headers_truncated": response_headers_truncated,
            "response_status": response_status,
            "started_at": started_at,
            "trigger": trigger,
        })
        if actor is not UNSET:
            field_dict["actor"] = actor
        if error_class is not UNSET:
            field_dict["error_class"] = error_class
        if error_message is not UNSET:
            field_dict["error_message"] = error_message

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_request_headers import AttemptRequestHeaders
        from ..models.attempt_response_headers_type_0 import AttemptResponseHeadersType0
        d = dict(src_dict)
        attempt_number = d.pop("attempt_number")

        delivery_id = UUID(d.pop("delivery_id"))




        duration_ms = d.pop("duration_ms")

        endpoint_id = UUID(d.pop("endpoint_id"))




        event_id = UUID(d.pop("event_id"))




        id = UUID(d.pop("id"))




        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = isoparse(data)



                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))


        outcome = check_attempt_outcome(d.pop("outcome"))




        request_headers = AttemptRequestHeaders.from_dict(d.pop("request_headers"))




        response_body = d.pop("response_body")

        response_body_truncated = d.pop("response_body_truncated")

        def _parse_response_headers(data: object) -> AttemptResponseHeadersType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_headers_type_0 = AttemptResponseHeadersType0.from_dict(data)



                return response_headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AttemptResponseHeadersType0 | None, data)

        response_headers = _parse_response_headers(d.pop("response_headers"))


        response_headers_truncated = d.pop("response_headers_truncated")

        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("response_status"))


        started_at = isoparse(d.pop("started_at"))




        trigger = check_attempt_trigger(d.pop("trigger"))




        actor = d.pop("actor", UNSET)

        error_class = d.pop("error_class", UNSET)

        error_message = d.pop("error_message", UNSET)

        attempt = cls(
            attempt_number=attempt_number,
            delivery_id=delivery_id,
            duration_ms=duration_ms,
            endpoint_id=endpoint_id,
            event_id=event_id,
            id=id,
            next_attempt_at=next_attempt_at,
            outcome=outcome,
            request_headers=request_headers,
            response_body=response_body,
            response_body_truncated=response_body_truncated,
            response_headers=response_headers,
            response_headers_truncated=response_headers_truncated,
            response_status=response_status,
            started_at=started_at,
            trigger=trigger,
            actor=actor,
            error_class=error_class,
            error_message=error_message,
        )


        attempt.additional_properties = d
        return attempt

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
