from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.replay_job_state import check_replay_job_state
from ..models.replay_job_state import ReplayJobState
from ..types import UNSET, Unset
from dateutil.parser import isoparse
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.replay_filter import ReplayFilter





T = TypeVar("T", bound="ReplayJob")



@_attrs_define
class ReplayJob:
    """ 
        Attributes:
            actor (str): who started it: a user email, an API key prefix or Ferry support
            created_at (datetime.datetime): when the job was started
            done (int): re-queued so far
            filter_ (ReplayFilter):
            finished_at (datetime.datetime | None): when it completed, was cancelled or failed; null before
            id (UUID): the job's id
            started_at (datetime.datetime | None): when a worker first claimed it; null while queued
            state (ReplayJobState): queued, running, completed, cancelled or failed
            total (int): matching deliveries
            updated_at (datetime.datetime): when its progress last changed
            error (str | Unset): why a failed job failed
            reason (str | Unset): staff's reason; absent for the tenant's own jobs
     """

    actor: str
    created_at: datetime.datetime
    done: int
    filter_: ReplayFilter
    finished_at: datetime.datetime | None
    id: UUID
    started_at: datetime.datetime | None
    state: ReplayJobState
    total: int
    updated_at: datetime.datetime
    error: str | Unset = UNSET
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.replay_filter import ReplayFilter
        actor = self.actor

        created_at = self.created_at.isoformat()

        done = self.done

        filter_ = self.filter_.to_dict()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = str(self.id)

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        state: str = self.state

        total = self.total

        updated_at = self.updated_at.isoformat()

        error = self.error

        reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actor": actor,
            "created_at": created_at,
            "done": done,
            "filter": filter_,
            "finished_at": finished_at,
            "id": id,
            "started_at": started_at,
            "state": state,
            "total": total,
            "updated_at": updated_at,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.replay_filter import ReplayFilter
        d = dict(src_dict)
        actor = d.pop("actor")

        created_at = isoparse(d.pop("created_at"))




        done = d.pop("done")

        filter_ = ReplayFilter.from_dict(d.pop("filter"))




        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = isoparse(data)



                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))


        id = UUID(d.pop("id"))




        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = isoparse(data)



                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))


        state = check_replay_job_state(d.pop("state"))




        total = d.pop("total")

        updated_at = isoparse(d.pop("updated_at"))




        error = d.pop("error", UNSET)

        reason = d.pop("reason", UNSET)

        replay_job = cls(
            actor=actor,
            created_at=created_at,
            done=done,
            filter_=filter_,
            finished_at=finished_at,
            id=id,
            started_at=started_at,
            state=state,
            total=total,
            updated_at=updated_at,
            error=error,
            reason=reason,
        )


        replay_job.additional_properties = d
        return replay_job

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
