/** Types of dense-answers.mjs (imported by the libs/verdict-blocks linear spec). */
export declare const DENSE_SHAPES: readonly string[];
export declare function denseAnswer(bytes: number, options?: { seed?: number; shapes?: readonly string[] }): string;
