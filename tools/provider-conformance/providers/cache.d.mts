/** `bin/<name>` links of an install → the file each points at (relative to the install). */
export declare const CLI_LINKS: Readonly<Record<'claude' | 'codex', string>>;
/** The cache directory of this lockfile's install (absolute; it may not exist yet). */
export declare function providersCacheDir(env?: NodeJS.ProcessEnv): string;
