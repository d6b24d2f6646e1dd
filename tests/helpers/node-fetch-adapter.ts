/** Tests, scripts and the bench serve route handlers from node:http with the product's own adapter. */
export { toRequest, writeResponse } from "../../lib/net/node-fetch";
