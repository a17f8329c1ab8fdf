// `node --import tsx --import ./mural-package-bridge.ts mural-in-app.ts DIR ARGS…`: `mural ARGS` in DIR (see mural-app.ts)
import { main } from '../../bin/main.ts';

const [cwd, ...argv] = process.argv.slice(2);
process.exitCode = await main(argv, { cwd });
