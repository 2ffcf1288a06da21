from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="QueueStats")



@_attrs_define
class QueueStats:
    """ 
        Attributes:
            dead (int): the messages dropped (rejected) or exhausted: replayable.
            depth (int): the messages waiting: due or delayed, not leased.
            in_flight (int): the messages leased and not yet settled.
            oldest_age_seconds (int): the age of the oldest waiting message (0 when none waits).
     """

    dead: int
    depth: int
    in_flight: int
    oldest_age_seconds: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        dead = self.dead

        depth = self.depth

        in_flight = self.in_flight

        oldest_age_seconds = self.oldest_age_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "dead": dead,
            "depth": depth,
            "in_flight": in_flight,
            "oldest_age_seconds": oldest_age_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dead = d.pop("dead")

        depth = d.pop("depth")

        in_flight = d.pop("in_flight")

        oldest_age_seconds = d.pop("oldest_age_seconds")

        queue_stats = cls(
            dead=dead,
            depth=depth,
            in_flight=in_flight,
            oldest_age_seconds=oldest_age_seconds,
        )


        queue_stats.additional_properties = d
        return queue_stats

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
