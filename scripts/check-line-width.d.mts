export declare const MAX_LINE_WIDTH: number;
export declare const CHECKED_FILES: RegExp;
export declare function longLines(text: string, limit?: number): { line: number; width: number }[];
export declare function describeLongLines(file: string, found: { line: number; width: number }[]): string[];
