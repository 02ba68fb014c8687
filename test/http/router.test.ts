import { matchRoute } from '../../src/http/router.js';
import { describeRouterContract } from './router-contract.js';

describeRouterContract('matchRoute', (routes) => (method, path) => matchRoute(routes, method, path));
