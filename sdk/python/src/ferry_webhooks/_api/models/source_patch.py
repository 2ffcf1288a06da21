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





T = TypeVar("T", bound="SourcePatch")



@_attrs_define
class SourcePatch:
    """ 
        Attributes:
            dedupe (None | SourceDedupeInput | Unset): null removes dedupe
            enabled (bool | None | Unset): false: the ingest URL answers 404 until re-enabled
            event_type (None | SourceEventTypeInput | Unset): replaces how a request's event type is chosen
            name (None | str | Unset): a new label
            rate_limit_per_second (int | None | Unset): accepted requests per second (1-10000)
            response (None | SourceResponseInput | Unset): null removes the custom response
            verification (None | SourceVerificationInput | Unset): replaces the scheme; an empty secret keeps the stored one
                when the type is unchanged
     """

    dedupe: None | SourceDedupeInput | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    event_type: None | SourceEventTypeInput | Unset = UNSET
    name: None | str | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET
    response: None | SourceResponseInput | Unset = UNSET
    verification: None | SourceVerificationInput | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.source_dedupe_input import SourceDedupeInput
        from ..models.source_event_type_input import SourceEventTypeInput
        from ..models.source_response_input import SourceResponseInput
        from ..models.source_verification_input import SourceVerificationInput
        dedupe: dict[str, Any] | None | Unset
        if isinstance(self.dedupe, Unset):
            dedupe = UNSET
        elif isinstance(self.dedupe, SourceDedupeInput):
            dedupe = self.dedupe.to_dict()
        else:
            dedupe = self.dedupe

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        event_type: dict[str, Any] | None | Unset
        if isinstance(self.event_type, Unset):
            event_type = UNSET
        elif isinstance(self.event_type, SourceEventTypeInput):
            event_type = self.event_type.to_dict()
        else:
            event_type = self.event_type

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

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

        verification: dict[str, Any] | None | Unset
        if isinstance(self.verification, Unset):
            verification = UNSET
        elif isinstance(self.verification, SourceVerificationInput):
            verification = self.verification.to_dict()
        else:
            verification = self.verification


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if dedupe is not UNSET:
            field_dict["dedupe"] = dedupe
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if name is not UNSET:
            field_dict["name"] = name
        if rate_limit_per_second is not UNSET:
            field_dict["rate_limit_per_second"] = rate_limit_per_second
        if response is not UNSET:
            field_dict["response"] = response
        if verification is not UNSET:
            field_dict["verification"] = verification

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.source_dedupe_input import SourceDedupeInput
        from ..models.source_event_type_input import SourceEventTypeInput
        from ..models.source_response_input import SourceResponseInput
        from ..models.source_verification_input import SourceVerificationInput
        d = dict(src_dict)
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


        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))


        def _parse_event_type(data: object) -> None | SourceEventTypeInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                event_type_type_0 = SourceEventTypeInput.from_dict(data)



                return event_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceEventTypeInput | Unset, data)

        event_type = _parse_event_type(d.pop("event_type", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


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


        def _parse_verification(data: object) -> None | SourceVerificationInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                verification_type_0 = SourceVerificationInput.from_dict(data)



                return verification_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceVerificationInput | Unset, data)

        verification = _parse_verification(d.pop("verification", UNSET))


        source_patch = cls(
            dedupe=dedupe,
            enabled=enabled,
            event_type=event_type,
            name=name,
            rate_limit_per_second=rate_limit_per_second,
            response=response,
            verification=verification,
        )


        source_patch.additional_properties = d
        return source_patch

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
