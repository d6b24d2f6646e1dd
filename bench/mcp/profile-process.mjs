/**
 * Preloaded (NODE_OPTIONS=--import) into the app's Node processes by `npm run bench:mcp --
 * --cpu-prof DIR`: Node 20 refuses --cpu-prof in NODE_OPTIONS, so the inspector's sampling
 * profiler is started here instead and its profile written to DIR/<pid>.cpuprofile when the
 * process exits (the in-process inspector session answers synchronously, even in "exit").
 */
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
