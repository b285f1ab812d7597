// PLACEHOLDER until this parser lands in this session.
import type { ParserFactory } from './stream.js';

export const createCargoParser: ParserFactory = () => {
  throw new Error('cargo parser: not implemented yet');
};
