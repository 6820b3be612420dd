"""Python client of the Neuroscience Data Service: search, connectomes as pandas DataFrames, SyQL, jobs as Apache
Arrow, graph analyses, networkx graphs, morphometrics, meta-analysis and uploads."""

from ._version import __version__
from .areas import SearchResults
from .client import Client
from .datasets import Dataset
from .errors import (
    BadRequest,
    ChecksumMismatch,
    Conflict,
    DeadlineExceeded,
    JobCancelled,
    JobFailed,
    NeurodataError,
    NotAcademic,
    NotAuthenticated,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    TokenScopeTooNarrow,
    TruncatedResultWarning,
)
from .jobs import Job

__all__ = [
    "BadRequest",
    "ChecksumMismatch",
    "Client",
    "Conflict",
    "Dataset",
    "DeadlineExceeded",
    "Job",
    "JobCancelled",
    "JobFailed",
    "NeurodataError",
    "NotAcademic",
    "NotAuthenticated",
    "NotFound",
    "PayloadTooLarge",
    "PermissionDenied",
    "RateLimited",
    "SearchResults",
    "ServerError",
    "ServiceUnavailable",
    "TokenScopeTooNarrow",
    "TruncatedResultWarning",
    "__version__",
]
