// PLACEHOLDER until this parser lands in this session.
import type { ParserFactory } from './stream.js';

export const createTapParser: ParserFactory = () => {
  throw new Error('tap parser: not implemented yet');
};
