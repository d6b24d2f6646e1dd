/**
 * node --import tsx scripts/assemble-image.ts <dir>: lays out in <dir> what the image holds
 * (scripts/lib/image-assembly.ts) from the build in .next. The Dockerfile's build stage runs it;
 * run it after `npm run build` to look at or measure the image's contents without Docker.
 */
import path from "node:path";
import { assembleImage, directorySize } from "./lib/image-assembly";

async function main(args: string[]): Promise<void> {
  const [outDir] = args;
  if (!outDir || outDir.startsWith("-")) {
    process.stderr.write("Usage: node --import tsx scripts/assemble-image.ts <dir>   (after next build)\n");
    process.exit(1);
  }
  await assembleImage(process.cwd(), path.resolve(outDir));
  console.log(`Assembled ${outDir}: ${(directorySize(path.resolve(outDir)) / 1e6).toFixed(0)} MB`);
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`assemble-image failed: ${err.message}`);
  process.exit(1);
});
