"""Every REST route the client calls, by name, written as the service's /openapi.json writes it (method and path
template). A test holds this table to the document a running service serves, so a renamed or removed route fails
there instead of in a user's script."""

from __future__ import annotations

from urllib.parse import quote

ROUTES: dict[str, tuple[str, str]] = {
    "health": ("GET", "/health"),
    "ping": ("GET", "/v1/federation/ping"),
    "login": ("POST", "/v1/user/auth/login"),
    "refresh": ("POST", "/v1/user/auth/refresh"),
    "profile": ("GET", "/v1/user/profile"),
    "search": ("GET", "/v1/search/fulltext"),
    "datasets": ("GET", "/v1/neurodata/datasets"),
    "create_dataset": ("POST", "/v1/neurodata/datasets"),
    "incomplete_datasets": ("GET", "/v1/neurodata/datasets/incomplete"),
    "dataset": ("GET", "/v1/neurodata/datasets/{dataset_id}"),
    "update_dataset": ("PATCH", "/v1/neurodata/datasets/{dataset_id}"),
    "delete_dataset": ("DELETE", "/v1/neurodata/datasets/{dataset_id}"),
    "publish": ("POST", "/v1/neurodata/datasets/{dataset_id}/publish"),
    "versions": ("GET", "/v1/neurodata/datasets/{dataset_id}/versions"),
    "version": ("GET", "/v1/neurodata/datasets/{dataset_id}/versions/{version}"),
    "citation": ("GET", "/v1/neurodata/datasets/{dataset_id}/citation"),
    "json_ld": ("GET", "/v1/neurodata/datasets/{dataset_id}/metadata.jsonld"),
    "assets": ("GET", "/v1/neurodata/datasets/{dataset_id}/assets"),
    "upload": ("POST", "/v1/neurodata/datasets/{dataset_id}/assets"),
    "asset_content": ("GET", "/v1/neurodata/datasets/{dataset_id}/assets/{asset_id}/content"),
    "access": ("GET", "/v1/neurodata/datasets/{dataset_id}/access"),
    "request_access": ("POST", "/v1/neurodata/datasets/{dataset_id}/access/request"),
    "approve_access": ("POST", "/v1/neurodata/datasets/{dataset_id}/access/requests/{request_id}/approve"),
    "deny_access": ("POST", "/v1/neurodata/datasets/{dataset_id}/access/requests/{request_id}/deny"),
    "rois": ("GET", "/v1/neurodata/datasets/{dataset_id}/rois"),
    "neuron": ("GET", "/v1/neurodata/datasets/{dataset_id}/neurons/{neuron_id}"),
    "neuron_search": ("POST", "/v1/neurodata/datasets/{dataset_id}/neurons/search"),
    "neuron_search_arrow": ("POST", "/v1/neurodata/datasets/{dataset_id}/neurons/search.arrow"),
    "neuron_fields": ("GET", "/v1/neurodata/datasets/{dataset_id}/neurons/fields"),
    "adjacency_arrow": ("POST", "/v1/neurodata/datasets/{dataset_id}/connectivity/adjacency.arrow"),
    "common_partners": ("POST", "/v1/neurodata/datasets/{dataset_id}/connectivity/common-partners"),
    "connectivity_by_field": ("POST", "/v1/neurodata/datasets/{dataset_id}/connectivity/by-field"),
    "neurons_arrow": ("GET", "/v1/neurodata/datasets/{dataset_id}/neurons.arrow"),
    "connections_arrow": ("GET", "/v1/neurodata/datasets/{dataset_id}/connections.arrow"),
    "synapses_arrow": ("GET", "/v1/neurodata/datasets/{dataset_id}/synapses.arrow"),
    "syql_exec": ("POST", "/v1/syql/exec"),
    "syql_plan": ("POST", "/v1/syql/plan"),
    "jobs": ("GET", "/v1/jobs"),
    "submit_job": ("POST", "/v1/jobs"),
    "submit_graph_job": ("POST", "/v1/jobs/graph"),
    "job": ("GET", "/v1/jobs/{job_id}"),
    "cancel_job": ("DELETE", "/v1/jobs/{job_id}"),
    "rerun_job": ("POST", "/v1/jobs/{job_id}/rerun"),
    "job_result": ("GET", "/v1/jobs/{job_id}/result"),
    "saved_queries": ("GET", "/v1/queries"),
    "save_query": ("POST", "/v1/queries/from-syql"),
    "delete_query": ("DELETE", "/v1/queries/{id}"),
    "run_query": ("POST", "/v1/queries/{id}/run"),
    "refresh_query": ("POST", "/v1/queries/{id}/refresh"),
    "graph_metrics": ("GET", "/v1/graph/{dataset_id}/metrics"),
    "graph_motifs": ("POST", "/v1/graph/{dataset_id}/motifs"),
    "graph_compare_synapse_types": ("POST", "/v1/graph/{dataset_id}/motifs/compare-synapse-types"),
    "graph_shortest_path": ("POST", "/v1/graph/{dataset_id}/shortest-path"),
    "graph_reachability": ("POST", "/v1/graph/{dataset_id}/reachability"),
    "graph_reachability_curve": ("POST", "/v1/graph/{dataset_id}/reachability-curve"),
    "graph_neighbourhood": ("GET", "/v1/graph/{dataset_id}/neighbourhood"),
    "graph_compare": ("POST", "/v1/graph/compare"),
    "degree_distribution": ("GET", "/v1/analytics/graph/{dataset_id}/degree-distribution"),
    "summary": ("GET", "/v1/analytics/summary"),
    "zscore_comparison": ("GET", "/v1/analytics/zscore-comparison"),
    "morphometrics": ("GET", "/v1/analytics/morphometrics"),
    "meta_analysis": ("POST", "/v1/meta-analysis"),
    "atlas_compare": ("GET", "/v1/meta-analysis/atlas/compare"),
}


def route(name: str, **params: object) -> tuple[str, str]:
    """The method and path of route `name`, its path parameters filled in and percent-encoded."""
    method, template = ROUTES[name]
    return method, template.format(**{k: quote(str(v), safe="") for k, v in params.items()})


def path(name: str, **params: object) -> str:
    """The path alone, for the calls that choose their own method (paging, streaming, plots)."""
    return route(name, **params)[1]
