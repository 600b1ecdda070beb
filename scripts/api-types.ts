// Writes the TypeScript types of /api/v1 from its OpenAPI document (openapi-typescript), for clients in
// this repository: tests/support/docuchat-api.d.ts. The public-API test fails when the file is stale.
import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { apiTypes, API_TYPES_FILE } from "../tests/support/api-types";

writeFileSync(API_TYPES_FILE, await apiTypes());
console.log(`wrote ${API_TYPES_FILE}`);
