import fs from "node:fs";
import path from "node:path";
import { withRenderedTable } from "../lib/permissions/render-table";

// Writes the permission table (lib/permissions/table.ts) into README.md between its markers.
const readme = path.resolve(import.meta.dirname, "../README.md");
fs.writeFileSync(readme, withRenderedTable(fs.readFileSync(readme, "utf8")));
