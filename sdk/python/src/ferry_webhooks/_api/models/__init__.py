""" Contains all the data models used in inputs/outputs """

from .ack_input import AckInput
from .attempt import Attempt
from .attempt_outcome import AttemptOutcome
from .attempt_request_headers import AttemptRequestHeaders
from .attempt_response_headers_type_0 import AttemptResponseHeadersType0
from .attempt_trigger import AttemptTrigger
from .backlog import Backlog
from .bulk_replay_input import BulkReplayInput
from .bulk_replay_input_status import BulkReplayInputStatus
from .consumer_token import ConsumerToken
from .consumer_token_created import ConsumerTokenCreated
from .consumer_token_input import ConsumerTokenInput
from .customer_create import CustomerCreate
from .customer_create_metadata import CustomerCreateMetadata
from .customer_endpoint_data import CustomerEndpointData
from .customer_input import CustomerInput
from .customer_input_metadata import CustomerInputMetadata
from .customer_patch import CustomerPatch
from .customer_patch_metadata_type_0 import CustomerPatchMetadataType0
from .customer_user import CustomerUser
from .customer_view import CustomerView
from .customer_view_metadata_type_0 import CustomerViewMetadataType0
from .customers_list_response_200 import CustomersListResponse200
from .delivery import Delivery
from .delivery_exhausted_data import DeliveryExhaustedData
from .delivery_status import DeliveryStatus
from .endpoint import Endpoint
from .endpoint_created import EndpointCreated
from .endpoint_created_format import EndpointCreatedFormat
from .endpoint_created_headers_type_0 import EndpointCreatedHeadersType0
from .endpoint_created_kind import EndpointCreatedKind
from .endpoint_format import EndpointFormat
from .endpoint_headers_type_0 import EndpointHeadersType0
from .endpoint_health import EndpointHealth
from .endpoint_health_data import EndpointHealthData
from .endpoint_input import EndpointInput
from .endpoint_input_format import EndpointInputFormat
from .endpoint_input_headers import EndpointInputHeaders
from .endpoint_input_kind import EndpointInputKind
from .endpoint_kind import EndpointKind
from .endpoint_patch import EndpointPatch
from .endpoint_patch_format_type_1 import EndpointPatchFormatType1
from .endpoint_patch_format_type_2_type_1 import EndpointPatchFormatType2Type1
from .endpoint_patch_format_type_3_type_1 import EndpointPatchFormatType3Type1
from .endpoint_patch_headers_type_0 import EndpointPatchHeadersType0
from .endpoint_stats_line import EndpointStatsLine
from .endpoints_attempts_list_outcome import EndpointsAttemptsListOutcome
from .endpoints_attempts_list_response_200 import EndpointsAttemptsListResponse200
from .endpoints_list_response_200 import EndpointsListResponse200
from .endpoints_stats_window import EndpointsStatsWindow
from .error import Error
from .error_detail import ErrorDetail
from .error_detail_code import ErrorDetailCode
from .event import Event
from .event_accepted import EventAccepted
from .event_detail import EventDetail
from .event_input import EventInput
from .event_type import EventType
from .event_type_import_result import EventTypeImportResult
from .event_type_import_skip import EventTypeImportSkip
from .event_type_input import EventTypeInput
from .event_type_input_validation import EventTypeInputValidation
from .event_type_patch import EventTypePatch
from .event_type_patch_validation_type_1 import EventTypePatchValidationType1
from .event_type_patch_validation_type_2_type_1 import EventTypePatchValidationType2Type1
from .event_type_patch_validation_type_3_type_1 import EventTypePatchValidationType3Type1
from .event_type_validation import EventTypeValidation
from .event_type_version import EventTypeVersion
from .event_type_warning import EventTypeWarning
from .event_types_import_body import EventTypesImportBody
from .event_types_list_response_200 import EventTypesListResponse200
from .events_attempts_list_response_200 import EventsAttemptsListResponse200
from .events_list_response_200 import EventsListResponse200
from .events_list_status import EventsListStatus
from .filter_errors import FilterErrors
from .meta_openapi_response_200 import MetaOpenapiResponse200
from .nack_input import NackInput
from .portal_audit_entry import PortalAuditEntry
from .portal_audit_list_response_200 import PortalAuditListResponse200
from .portal_customer import PortalCustomer
from .portal_external_user import PortalExternalUser
from .portal_external_user_input import PortalExternalUserInput
from .portal_session import PortalSession
from .portal_session_input import PortalSessionInput
from .portal_session_minted import PortalSessionMinted
from .portal_sessions_list_response_200 import PortalSessionsListResponse200
from .portal_settings import PortalSettings
from .portal_settings_input import PortalSettingsInput
from .portal_theme import PortalTheme
from .portal_theme_input import PortalThemeInput
from .previous_secret import PreviousSecret
from .pull_input import PullInput
from .queue_message import QueueMessage
from .queue_message_headers_type_0 import QueueMessageHeadersType0
from .queue_pull import QueuePull
from .queue_settled import QueueSettled
from .queue_stats import QueueStats
from .queues_consumer_tokens_list_response_200 import QueuesConsumerTokensListResponse200
from .quota_warning_data import QuotaWarningData
from .receipt_result import ReceiptResult
from .receipt_result_status import ReceiptResultStatus
from .reject_input import RejectInput
from .replay_event_input import ReplayEventInput
from .replay_filter import ReplayFilter
from .replay_job import ReplayJob
from .replay_job_state import ReplayJobState
from .replay_preview import ReplayPreview
from .replay_result import ReplayResult
from .replays_list_response_200 import ReplaysListResponse200
from .response_ms import ResponseMs
from .revoke_input import RevokeInput
from .revoked import Revoked
from .routing_test_event import RoutingTestEvent
from .routing_test_input import RoutingTestInput
from .routing_test_request import RoutingTestRequest
from .routing_test_request_headers import RoutingTestRequestHeaders
from .routing_test_request_query import RoutingTestRequestQuery
from .routing_test_result import RoutingTestResult
from .routing_test_result_headers_type_0 import RoutingTestResultHeadersType0
from .secret_info import SecretInfo
from .source import Source
from .source_dedupe import SourceDedupe
from .source_dedupe_input import SourceDedupeInput
from .source_event_type import SourceEventType
from .source_event_type_input import SourceEventTypeInput
from .source_input import SourceInput
from .source_patch import SourcePatch
from .source_replay_result import SourceReplayResult
from .source_request import SourceRequest
from .source_request_detail import SourceRequestDetail
from .source_request_detail_headers_type_0 import SourceRequestDetailHeadersType0
from .source_request_detail_status import SourceRequestDetailStatus
from .source_request_status import SourceRequestStatus
from .source_response import SourceResponse
from .source_response_input import SourceResponseInput
from .source_verification import SourceVerification
from .source_verification_encoding import SourceVerificationEncoding
from .source_verification_input import SourceVerificationInput
from .source_verification_input_encoding import SourceVerificationInputEncoding
from .source_verification_input_type import SourceVerificationInputType
from .source_verification_type import SourceVerificationType
from .sources_list_response_200 import SourcesListResponse200
from .sources_requests_list_response_200 import SourcesRequestsListResponse200
from .sources_requests_list_status import SourcesRequestsListStatus
from .stats import Stats
from .stats_by_error_class import StatsByErrorClass
from .stats_get_window import StatsGetWindow
from .stats_point import StatsPoint
from .tenant_stats import TenantStats
from .tenant_stats_by_error_class import TenantStatsByErrorClass
from .test_event_data import TestEventData
from .test_event_input import TestEventInput
from .version_input import VersionInput

__all__ = (
    "AckInput",
    "Attempt",
    "AttemptOutcome",
    "AttemptRequestHeaders",
    "AttemptResponseHeadersType0",
    "AttemptTrigger",
    "Backlog",
    "BulkReplayInput",
    "BulkReplayInputStatus",
    "ConsumerToken",
    "ConsumerTokenCreated",
    "ConsumerTokenInput",
    "CustomerCreate",
    "CustomerCreateMetadata",
    "CustomerEndpointData",
    "CustomerInput",
    "CustomerInputMetadata",
    "CustomerPatch",
    "CustomerPatchMetadataType0",
    "CustomersListResponse200",
    "CustomerUser",
    "CustomerView",
    "CustomerViewMetadataType0",
    "Delivery",
    "DeliveryExhaustedData",
    "DeliveryStatus",
    "Endpoint",
    "EndpointCreated",
    "EndpointCreatedFormat",
    "EndpointCreatedHeadersType0",
    "EndpointCreatedKind",
    "EndpointFormat",
    "EndpointHeadersType0",
    "EndpointHealth",
    "EndpointHealthData",
    "EndpointInput",
    "EndpointInputFormat",
    "EndpointInputHeaders",
    "EndpointInputKind",
    "EndpointKind",
    "EndpointPatch",
    "EndpointPatchFormatType1",
    "EndpointPatchFormatType2Type1",
    "EndpointPatchFormatType3Type1",
    "EndpointPatchHeadersType0",
    "EndpointsAttemptsListOutcome",
    "EndpointsAttemptsListResponse200",
    "EndpointsListResponse200",
    "EndpointsStatsWindow",
    "EndpointStatsLine",
    "Error",
    "ErrorDetail",
    "ErrorDetailCode",
    "Event",
    "EventAccepted",
    "EventDetail",
    "EventInput",
    "EventsAttemptsListResponse200",
    "EventsListResponse200",
    "EventsListStatus",
    "EventType",
    "EventTypeImportResult",
    "EventTypeImportSkip",
    "EventTypeInput",
    "EventTypeInputValidation",
    "EventTypePatch",
    "EventTypePatchValidationType1",
    "EventTypePatchValidationType2Type1",
    "EventTypePatchValidationType3Type1",
    "EventTypesImportBody",
    "EventTypesListResponse200",
    "EventTypeValidation",
    "EventTypeVersion",
    "EventTypeWarning",
    "FilterErrors",
    "MetaOpenapiResponse200",
    "NackInput",
    "PortalAuditEntry",
    "PortalAuditListResponse200",
    "PortalCustomer",
    "PortalExternalUser",
    "PortalExternalUserInput",
    "PortalSession",
    "PortalSessionInput",
    "PortalSessionMinted",
    "PortalSessionsListResponse200",
    "PortalSettings",
    "PortalSettingsInput",
    "PortalTheme",
    "PortalThemeInput",
    "PreviousSecret",
    "PullInput",
    "QueueMessage",
    "QueueMessageHeadersType0",
    "QueuePull",
    "QueuesConsumerTokensListResponse200",
    "QueueSettled",
    "QueueStats",
    "QuotaWarningData",
    "ReceiptResult",
    "ReceiptResultStatus",
    "RejectInput",
    "ReplayEventInput",
    "ReplayFilter",
    "ReplayJob",
    "ReplayJobState",
    "ReplayPreview",
    "ReplayResult",
    "ReplaysListResponse200",
    "ResponseMs",
    "Revoked",
    "RevokeInput",
    "RoutingTestEvent",
    "RoutingTestInput",
    "RoutingTestRequest",
    "RoutingTestRequestHeaders",
    "RoutingTestRequestQuery",
    "RoutingTestResult",
    "RoutingTestResultHeadersType0",
    "SecretInfo",
    "Source",
    "SourceDedupe",
    "SourceDedupeInput",
    "SourceEventType",
    "SourceEventTypeInput",
    "SourceInput",
    "SourcePatch",
    "SourceReplayResult",
    "SourceRequest",
    "SourceRequestDetail",
    "SourceRequestDetailHeadersType0",
    "SourceRequestDetailStatus",
    "SourceRequestStatus",
    "SourceResponse",
    "SourceResponseInput",
    "SourcesListResponse200",
    "SourcesRequestsListResponse200",
    "SourcesRequestsListStatus",
    "SourceVerification",
    "SourceVerificationEncoding",
    "SourceVerificationInput",
    "SourceVerificationInputEncoding",
    "SourceVerificationInputType",
    "SourceVerificationType",
    "Stats",
    "StatsByErrorClass",
    "StatsGetWindow",
    "StatsPoint",
    "TenantStats",
    "TenantStatsByErrorClass",
    "TestEventData",
    "TestEventInput",
    "VersionInput",
)
