from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.receipt_result_status import check_receipt_result_status
from ..models.receipt_result_status import ReceiptResultStatus
from typing import cast






T = TypeVar("T", bound="ReceiptResult")



@_attrs_define
class ReceiptResult:
    """ 
        Attributes:
            receipt (str): the receipt sent
            status (ReceiptResultStatus): acked, nacked, rejected, or expired when the lease had run out
     """

    receipt: str
    status: ReceiptResultStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        receipt = self.receipt

        status: str = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "receipt": receipt,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        receipt = d.pop("receipt")

        status = check_receipt_result_status(d.pop("status"))




        receipt_result = cls(
            receipt=receipt,
            status=status,
        )


        receipt_result.additional_properties = d
        return receipt_result

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
