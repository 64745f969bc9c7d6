export declare function buildIsCurrent(root: string): boolean;
export declare function buildIfStale(root: string): void;
