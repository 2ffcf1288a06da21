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
  from ..models.backlog import Backlog
  from ..models.response_ms import ResponseMs
  from ..models.stats_by_error_class import StatsByErrorClass
  from ..models.stats_point import StatsPoint





T = TypeVar("T", bound="Stats")



@_attrs_define
class Stats:
    """ 
        Attributes:
            attempts (int): attempts in the window
            attempts_failed (int): attempts in the window that did not succeed
            backlog (Backlog):
            by_error_class (StatsByErrorClass): failed attempts by error class (timeout, dns …; an HTTP answer counts as
                http_<status>, e.g. http_503)
            failed (int): deliveries that were dropped or exhausted in the window
            from_ (datetime.datetime): the start of the first hour covered.
            last_success_at (datetime.datetime | None): the start of the latest successful attempt in the window, if any.
            response_ms (ResponseMs):
            series (list[StatsPoint]): one point per hour of the window, oldest first
            succeeded (int): deliveries that succeeded in the window
            success_rate (float | None): succeeded / (succeeded + failed); null when none finished
            window (str): the window asked for: 1h, 24h or 7d.
     """

    attempts: int
    attempts_failed: int
    backlog: Backlog
    by_error_class: StatsByErrorClass
    failed: int
    from_: datetime.datetime
    last_success_at: datetime.datetime | None
    response_ms: ResponseMs
    series: list[StatsPoint]
    succeeded: int
    success_rate: float | None
    window: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.backlog import Backlog
        from ..models.response_ms import ResponseMs
        from ..models.stats_by_error_class import StatsByErrorClass
        from ..models.stats_point import StatsPoint
        attempts = self.attempts

        attempts_failed = self.attempts_failed

        backlog = self.backlog.to_dict()

        by_error_class = self.by_error_class.to_dict()

        failed = self.failed

        from_ = self.from_.isoformat()

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        response_ms = self.response_ms.to_dict()

        series = []
        for series_item_data in self.series:
            series_item = series_item_data.to_dict()
            series.append(series_item)



        succeeded = self.succeeded

        success_rate: float | None
        success_rate = self.success_rate

        window = self.window


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempts": attempts,
            "attempts_failed": attempts_failed,
            "backlog": backlog,
            "by_error_class": by_error_class,
            "failed": failed,
            "from": from_,
            "last_success_at": last_success_at,
            "response_ms": response_ms,
            "series": series,
            "succeeded": succeeded,
            "success_rate": success_rate,
            "window": window,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.backlog import Backlog
        from ..models.response_ms import ResponseMs
        from ..models.stats_by_error_class import StatsByErrorClass
        from ..models.stats_point import StatsPoint
        d = dict(src_dict)
        attempts = d.pop("attempts")

        attempts_failed = d.pop("attempts_failed")

        backlog = Backlog.from_dict(d.pop("backlog"))




        by_error_class = StatsByErrorClass.from_dict(d.pop("by_error_class"))




        failed = d.pop("failed")

        from_ = isoparse(d.pop("from"))




        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = isoparse(data)



                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))


        response_ms = ResponseMs.from_dict(d.pop("response_ms"))




        series = []
        _series = d.pop("series")
        for series_item_data in (_series):
            series_item = StatsPoint.from_dict(series_item_data)



            series.append(series_item)


        succeeded = d.pop("succeeded")

        def _parse_success_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        success_rate = _parse_success_rate(d.pop("success_rate"))


        window = d.pop("window")

        stats = cls(
            attempts=attempts,
            attempts_failed=attempts_failed,
            backlog=backlog,
            by_error_class=by_error_class,
            failed=failed,
            from_=from_,
            last_success_at=last_success_at,
            response_ms=response_ms,
            series=series,
            succeeded=succeeded,
            success_rate=success_rate,
            window=window,
        )


        stats.additional_properties = d
        return stats

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
