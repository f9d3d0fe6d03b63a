// Types of the chart library the service serves at dashboard/vendor/uPlot.esm.js (from
// node_modules/uplot/dist): the package's own declarations.
import uPlot from 'uplot';
export default uPlot;
