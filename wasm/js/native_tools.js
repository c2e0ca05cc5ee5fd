// The native tools in build/bin/, and what to run when one is missing: `npm start` builds only
// what the page needs (the bake tool and the baked assets), `scripts/setup.sh --all` the rest.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The path of build/bin/`name`; throws, saying how to build it, when it is not there. */
export function nativeTool(name) {
  const path = fileURLToPath(new URL(`../../build/bin/${name}`, import.meta.url));
  if (!existsSync(path))
    throw new Error(`${path} is missing: \`bash scripts/setup.sh --all\` builds the native tools`);
  return path;
}
