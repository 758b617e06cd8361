// chart.js for the Spending view, and only what it draws: bars, one line (the daily cap), the
// category and linear axes, the tooltip and the legend. Imported by the view's components only,
// so chart.js is tree-shaken into the Spending view's own chunk.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
);

export { Chart };
export type { ChartConfiguration } from 'chart.js';
