from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.source_dedupe_input import SourceDedupeInput
  from ..models.source_event_type_input import SourceEventTypeInput
  from ..models.source_response_input import SourceResponseInput
  from ..models.source_verification_input import SourceVerificationInput





T = TypeVar("T", bound="SourceInput")



@_attrs_define
class SourceInput:
    """ 
        Attributes:
            event_type (SourceEventTypeInput):
            name (str): a label of yours
            verification (SourceVerificationInput):
            dedupe (None | SourceDedupeInput | Unset): where a dedupe key is: resends with the same key within 24 h make no
                second event
            rate_limit_per_second (int | None | Unset): accepted requests per second (1-10000, default 1000); more are
                answered 429 with Retry-After
            response (None | SourceResponseInput | Unset): answer to accepted requests (default 200 {} application/json)
     """

    event_type: SourceEventTypeInput
    name: str
    verification: SourceVerificationInput
    dedupe: None | SourceDedupeInput | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET
    response: None | SourceResponseInput | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.source_dedupe_input import SourceDedupeInput
        from ..models.source_event_type_input import SourceEventTypeInput
        from ..models.source_response_input import SourceResponseInput
        from ..models.source_verification_input import SourceVerificationInput
        event_type = self.event_type.to_dict()

        name = self.name

        verification = self.verification.to_dict()

        dedupe: dict[str, Any] | None | Unset
        if isinstance(self.dedupe, Unset):
            dedupe = UNSET
        elif isinstance(self.dedupe, SourceDedupeInput):
            dedupe = self.dedupe.to_dict()
        else:
            dedupe = self.dedupe

        rate_limit_per_second: int | None | Unset
        if isinstance(self.rate_limit_per_second, Unset):
            rate_limit_per_second = UNSET
        else:
            rate_limit_per_second = self.rate_limit_per_second

        response: dict[str, Any] | None | Unset
        if isinstance(self.response, Unset):
            response = UNSET
        elif isinstance(self.response, SourceResponseInput):
            response = self.response.to_dict()
        else:
            response = self.response


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "event_type": event_type,
            "name": name,
            "verification": verification,
        })
        if dedupe is not UNSET:
            field_dict["dedupe"] = dedupe
        if rate_limit_per_second is not UNSET:
            field_dict["rate_limit_per_second"] = rate_limit_per_second
        if response is not UNSET:
            field_dict["response"] = response

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.source_dedupe_input import SourceDedupeInput
        from ..models.source_event_type_input import SourceEventTypeInput
        from ..models.source_response_input import SourceResponseInput
        from ..models.source_verification_input import SourceVerificationInput
        d = dict(src_dict)
        event_type = SourceEventTypeInput.from_dict(d.pop("event_type"))




        name = d.pop("name")

        verification = SourceVerificationInput.from_dict(d.pop("verification"))




        def _parse_dedupe(data: object) -> None | SourceDedupeInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                dedupe_type_0 = SourceDedupeInput.from_dict(data)



                return dedupe_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceDedupeInput | Unset, data)

        dedupe = _parse_dedupe(d.pop("dedupe", UNSET))


        def _parse_rate_limit_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rate_limit_per_second", UNSET))


        def _parse_response(data: object) -> None | SourceResponseInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_type_0 = SourceResponseInput.from_dict(data)



                return response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceResponseInput | Unset, data)

        response = _parse_response(d.pop("response", UNSET))


        source_input = cls(
            event_type=event_type,
            name=name,
            verification=verification,
            dedupe=dedupe,
            rate_limit_per_second=rate_limit_per_second,
            response=response,
        )


        source_input.additional_properties = d
        return source_input

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
