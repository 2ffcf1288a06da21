from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_detail_code import check_error_detail_code
from ..models.error_detail_code import ErrorDetailCode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ErrorDetail")



@_attrs_define
class ErrorDetail:
    """ 
        Attributes:
            code (ErrorDetailCode): a stable, machine-readable code: branch on it
            message (str): for people; may change
            field (str | Unset): the request field at fault, when one is
     """

    code: ErrorDetailCode
    message: str
    field: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        code: str = self.code

        message = self.message

        field = self.field


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
        })
        if field is not UNSET:
            field_dict["field"] = field

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = check_error_detail_code(d.pop("code"))




        message = d.pop("message")

        field = d.pop("field", UNSET)

        error_detail = cls(
            code=code,
            message=message,
            field=field,
        )


        error_detail.additional_properties = d
        return error_detail

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
