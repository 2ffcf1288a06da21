from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.source_verification_encoding import check_source_verification_encoding
from ..models.source_verification_encoding import SourceVerificationEncoding
from ..models.source_verification_type import check_source_verification_type
from ..models.source_verification_type import SourceVerificationType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SourceVerification")



@_attrs_define
class SourceVerification:
    """ 
        Attributes:
            has_secret (bool): a secret (or basic_auth password) is stored.
            type_ (SourceVerificationType): the scheme: standard_webhooks, hmac_sha256, basic_auth, none …
            encoding (SourceVerificationEncoding | Unset): hmac_sha256: hex or base64
            header (str | Unset): hmac_sha256: the signature header
            prefix (str | Unset): hmac_sha256: text before the signature, e.g. sha256=
            username (str | Unset): basic_auth's.
     """

    has_secret: bool
    type_: SourceVerificationType
    encoding: SourceVerificationEncoding | Unset = UNSET
    header: str | Unset = UNSET
    prefix: str | Unset = UNSET
    username: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        has_secret = self.has_secret

        type_: str = self.type_

        encoding: str | Unset = UNSET
        if not isinstance(self.encoding, Unset):
            encoding = self.encoding


        header = self.header

        prefix = self.prefix

        username = self.username


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "has_secret": has_secret,
            "type": type_,
        })
        if encoding is not UNSET:
            field_dict["encoding"] = encoding
        if header is not UNSET:
            field_dict["header"] = header
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if username is not UNSET:
            field_dict["username"] = username

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        has_secret = d.pop("has_secret")

        type_ = check_source_verification_type(d.pop("type"))




        _encoding = d.pop("encoding", UNSET)
        encoding: SourceVerificationEncoding | Unset
        if isinstance(_encoding,  Unset):
            encoding = UNSET
        else:
            encoding = check_source_verification_encoding(_encoding)




        header = d.pop("header", UNSET)

        prefix = d.pop("prefix", UNSET)

        username = d.pop("username", UNSET)

        source_verification = cls(
            has_secret=has_secret,
            type_=type_,
            encoding=encoding,
            header=header,
            prefix=prefix,
            username=username,
        )


        source_verification.additional_properties = d
        return source_verification

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
