export declare const CLI_SOURCES: string[];
export declare function newestMtime(dir: string): number;
export declare function builtCli(root: string): string;
export declare function cliBuildIsCurrent(root: string): boolean;
