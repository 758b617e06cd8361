// Types of eslint.config.js for the scripts that reuse its rules (scripts/lint-sql-room.ts).
import type { Linter } from 'eslint';

export declare const sqlRoom: Linter.Config;
declare const config: Linter.Config[];
export default config;
