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
  from ..models.event import Event
  from ..models.queue_message_headers_type_0 import QueueMessageHeadersType0





T = TypeVar("T", bound="QueueMessage")



@_attrs_define
class QueueMessage:
    """ 
        Attributes:
            attempt (int): this lease's attempt number.
            body (str): the envelope exactly as a push sends it
            event (Event):
            headers (None | QueueMessageHeadersType0): the webhook headers a push sends, signature over body included
            id (UUID): the delivery's id.
            lease_until (datetime.datetime): when the message returns to the queue unless settled.
            receipt (str): receipt settles the lease (ack, nack, reject); it works once.
     """

    attempt: int
    body: str
    event: Event
    headers: None | QueueMessageHeadersType0
    id: UUID
    lease_until: datetime.datetime
    receipt: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event import Event
        from ..models.queue_message_headers_type_0 import QueueMessageHeadersType0
        attempt = self.attempt

        body = self.body

        event = self.event.to_dict()

        headers: dict[str, Any] | None
        if isinstance(self.headers, QueueMessageHeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        id = str(self.id)

        lease_until = self.lease_until.isoformat()

        receipt = self.receipt


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt": attempt,
            "body": body,
            "event": event,
            "headers": headers,
            "id": id,
            "lease_until": lease_until,
            "receipt": receipt,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event import Event
        from ..models.queue_message_headers_type_0 import QueueMessageHeadersType0
        d = dict(src_dict)
        attempt = d.pop("attempt")

        body = d.pop("body")

        event = Event.from_dict(d.pop("event"))




        def _parse_headers(data: object) -> None | QueueMessageHeadersType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = QueueMessageHeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QueueMessageHeadersType0, data)

        headers = _parse_headers(d.pop("headers"))


        id = UUID(d.pop("id"))




        lease_until = isoparse(d.pop("lease_until"))




        receipt = d.pop("receipt")

        queue_message = cls(
            attempt=attempt,
            body=body,
            event=event,
            headers=headers,
            id=id,
            lease_until=lease_until,
            receipt=receipt,
        )


        queue_message.additional_properties = d
        return queue_message

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
