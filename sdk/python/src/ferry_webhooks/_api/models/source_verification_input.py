from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.source_verification_input_encoding import check_source_verification_input_encoding
from ..models.source_verification_input_encoding import SourceVerificationInputEncoding
from ..models.source_verification_input_type import check_source_verification_input_type
from ..models.source_verification_input_type import SourceVerificationInputType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SourceVerificationInput")



@_attrs_define
class SourceVerificationInput:
    """ 
        Attributes:
            type_ (SourceVerificationInputType): the scheme, e.g. standard_webhooks, hmac_sha256, basic_auth or none
            encoding (SourceVerificationInputEncoding | Unset): hmac_sha256: hex (default) or base64
            header (str | Unset): hmac_sha256: the signature header
            password (str | Unset): basic_auth
            prefix (str | Unset): hmac_sha256: text before the signature, e.g. sha256=
            secret (str | Unset): the provider's signing secret (whsec_… for standard_webhooks); not for basic_auth or none
            username (str | Unset): basic_auth
     """

    type_: SourceVerificationInputType
    encoding: SourceVerificationInputEncoding | Unset = UNSET
    header: str | Unset = UNSET
    password: str | Unset = UNSET
    prefix: str | Unset = UNSET
    secret: str | Unset = UNSET
    username: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_: str = self.type_

        encoding: str | Unset = UNSET
        if not isinstance(self.encoding, Unset):
            encoding = self.encoding


        header = self.header

        password = self.password

        prefix = self.prefix

        secret = self.secret

        username = self.username


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
        })
        if encoding is not UNSET:
            field_dict["encoding"] = encoding
        if header is not UNSET:
            field_dict["header"] = header
        if password is not UNSET:
            field_dict["password"] = password
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if secret is not UNSET:
            field_dict["secret"] = secret
        if username is not UNSET:
            field_dict["username"] = username

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = check_source_verification_input_type(d.pop("type"))




        _encoding = d.pop("encoding", UNSET)
        encoding: SourceVerificationInputEncoding | Unset
        if isinstance(_encoding,  Unset):
            encoding = UNSET
        else:
            encoding = check_source_verification_input_encoding(_encoding)




        header = d.pop("header", UNSET)

        password = d.pop("password", UNSET)

        prefix = d.pop("prefix", UNSET)

        secret = d.pop("secret", UNSET)

        username = d.pop("username", UNSET)

        source_verification_input = cls(
            type_=type_,
            encoding=encoding,
            header=header,
            password=password,
            prefix=prefix,
            secret=secret,
            username=username,
        )


        source_verification_input.additional_properties = d
        return source_verification_input

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
