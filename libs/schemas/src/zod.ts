/**
 * The one home of zod in okstra (docs/conventions.md "One rule, one home"):
 * `zod/mini`, the functional build — its schemas carry no per-instance methods,
 * so loading and building them is cheap at start-up — with zod's English
 * messages configured here, once ("Invalid input: expected string, received
 * number"; refusals quote them). Import it as a namespace:
 *
 *     import * as z from '@okstra/schemas/zod';
 *
 * A named `import { z }` (zod's namespace object as a value) makes the bundler
 * keep every module of zod, locales included (≈420 KiB instead of ≈17 KiB), so
 * eslint refuses it, as it refuses `zod` and `zod/mini` anywhere but here.
 * Types: `z.infer`, `z.input`, `z.output`; "any schema" is `z.ZodMiniType`.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
