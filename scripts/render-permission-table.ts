import fs from "node:fs";
import path from "node:path";
import { withRenderedTable } from "../lib/permissions/render-table";

// Writes the permission table (lib/permissions/table.ts) into docs/admin-api.md between its markers.
const readme = path.resolve(import.meta.dirname, "../docs/admin-api.md");
fs.writeFileSync(readme, withRenderedTable(fs.readFileSync(readme, "utf8")));
