"""The areas of a Client, one per area of the service's REST API, each calling it through the client's session:

| attribute | class | routes |
|---|---|---|
| `client.service` | `Service` | `/health`, `/v1/federation/ping` |
| `client.account` | `Account` | `/v1/user/...` |
| `client.catalogue` | `Catalogue` | `/v1/search/...` |
| `client.datasets` | `Datasets` | `/v1/neurodata/datasets`, one dataset's record |
| `client.data` | `Data` | `/v1/neurodata/datasets/{id}/neurons.arrow`, ... |
| `client.queries` | `Queries` | `/v1/syql/...`, `/v1/queries/...` |
| `client.jobs` | `Jobs` | `/v1/jobs/...` |
| `client.graph` | `Graph` | `/v1/graph/...` |
| `client.analytics` | `Analytics` | `/v1/analytics/...` |
| `client.meta` | `MetaAnalysis` | `/v1/meta-analysis/...` |
"""

from .account import Account
from .analytics import Analytics
from .catalogue import Catalogue, SearchResults
from .data import Data
from .datasets import Datasets
from .graph import Graph
from .jobs import Jobs
from .meta import MetaAnalysis
from .queries import Queries
from .service import Service

__all__ = [
    "Account",
    "Analytics",
    "Catalogue",
    "Data",
    "Datasets",
    "Graph",
    "Jobs",
    "MetaAnalysis",
    "Queries",
    "SearchResults",
    "Service",
]
