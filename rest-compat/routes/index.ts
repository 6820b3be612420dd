import { withPlotRoutes, type Route } from '../route-table.js';
import { platformRoutes } from './platform.routes.js';
import { federationRoutes } from './federation.routes.js';
import { identityRoutes } from './identity.routes.js';
import { institutionalRoutes } from './institutional.routes.js';
import { socialLoginRoutes } from './social-login.routes.js';
import { ontologyRoutes } from './ontology.routes.js';
import { neurodataRoutes } from './neurodata.routes.js';
import { searchRoutes } from './search.routes.js';
import { graphAnalyticsRoutes, graphRoutes } from './graph.routes.js';
import { jobRoutes, savedQueryRoutes, syqlRoutes } from './query.routes.js';
import { analyticsRoutes, metaAnalysisRoutes } from './analytics.routes.js';

/** Every route the service answers; one file of rows per area. */
export const ROUTES: Route[] = withPlotRoutes([...platformRoutes, ...identityRoutes, ...institutionalRoutes, ...socialLoginRoutes, ...ontologyRoutes, ...searchRoutes, ...neurodataRoutes, ...graphRoutes, ...graphAnalyticsRoutes, ...analyticsRoutes, ...metaAnalysisRoutes, ...syqlRoutes, ...savedQueryRoutes, ...jobRoutes, ...federationRoutes]);
