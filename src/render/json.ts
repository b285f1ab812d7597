import type { RunReport } from '../core/report.js';

export const renderJson = (report: RunReport): string => `${JSON.stringify(report, null, 2)}\n`;
