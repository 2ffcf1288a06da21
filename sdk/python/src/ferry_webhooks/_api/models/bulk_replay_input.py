from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bulk_replay_input_status import BulkReplayInputStatus
from ..models.bulk_replay_input_status import check_bulk_replay_input_status
from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="BulkReplayInput")



@_attrs_define
class BulkReplayInput:
    """ 
        Attributes:
            endpoint_id (UUID | Unset): only deliveries to this endpoint
            event_type (str | Unset): only events of this type
            since (datetime.datetime | Unset): only events created at or after
            status (BulkReplayInputStatus | Unset): only deliveries in this status
            until (datetime.datetime | Unset): default: when the job is created
     """

    endpoint_id: UUID | Unset = UNSET
    event_type: str | Unset = UNSET
    since: datetime.datetime | Unset = UNSET
    status: BulkReplayInputStatus | Unset = UNSET
    until: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id: str | Unset = UNSET
        if not isinstance(self.endpoint_id, Unset):
            endpoint_id = str(self.endpoint_id)

        event_type = self.event_type

        since: str | Unset = UNSET
        if not isinstance(self.since, Unset):
            since = self.since.isoformat()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status


        until: str | Unset = UNSET
        if not isinstance(self.until, Unset):
            until = self.until.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if endpoint_id is not UNSET:
            field_dict["endpoint_id"] = endpoint_id
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if since is not UNSET:
            field_dict["since"] = since
        if status is not UNSET:
            field_dict["status"] = status
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _endpoint_id = d.pop("endpoint_id", UNSET)
        endpoint_id: UUID | Unset
        if isinstance(_endpoint_id,  Unset):
            endpoint_id = UNSET
        else:
            endpoint_id = UUID(_endpoint_id)




        event_type = d.pop("event_type", UNSET)

        _since = d.pop("since", UNSET)
        since: datetime.datetime | Unset
        if isinstance(_since,  Unset):
            since = UNSET
        else:
            since = isoparse(_since)




        _status = d.pop("status", UNSET)
        status: BulkReplayInputStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = check_bulk_replay_input_status(_status)




        _until = d.pop("until", UNSET)
        until: datetime.datetime | Unset
        if isinstance(_until,  Unset):
            until = UNSET
        else:
            until = isoparse(_until)




        bulk_replay_input = cls(
            endpoint_id=endpoint_id,
            event_type=event_type,
            since=since,
            status=status,
            until=until,
        )


        bulk_replay_input.additional_properties = d
        return bulk_replay_input

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
