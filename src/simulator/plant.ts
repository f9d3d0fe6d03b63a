// What the demo plant is made of (docs/demo.md, "The demo plant"): lines, capacity groups,
// workplaces, sensors, qualifications, shift times and the routings of its products.

/**
 * The ERP contexts the plant's records belong to, as the service seeds them (migration 030): the
 * plant for groups, workplaces, orders and operations, the personnel area for staff members.
 */
export const ERP_CONTEXTS = {
  plant: 'BF0268C3CAFD4430B85485FB35FEE00D',
  personnelArea: '4ca712a78a2b4cf58fa5a79544707e37',
} as const;

export interface GroupSpec {
  number: string;
  description: string;
  type: 'CAPACITY_GROUP' | 'PRODUCTION_LINE';
}

export const PRODUCTION_LINES: readonly GroupSpec[] = [
  { number: 'LINE-MACH', description: 'Machining line', type: 'PRODUCTION_LINE' },
  { number: 'LINE-ASSY', description: 'Assembly line', type: 'PRODUCTION_LINE' },
];

/** A capacity group, its workplaces and the qualification its work needs. */
export interface CapacityGroupSpec extends GroupSpec {
  line: string;
  prefix: string;
  workplaces: number;
  manual: boolean;
  qualification: string;
}

export const CAPACITY_GROUPS: readonly CapacityGroupSpec[] = [
  cg('CG-TURN', 'CNC turning', 'LINE-MACH', 'TURN', 4, false, 'TURNING'),
  cg('CG-MILL', 'CNC milling', 'LINE-MACH', 'MILL', 4, false, 'MILLING'),
  cg('CG-GRIND', 'Grinding', 'LINE-MACH', 'GRIND', 3, false, 'GRINDING'),
  cg('CG-ASSY', 'Manual assembly', 'LINE-ASSY', 'ASSY', 5, true, 'ASSEMBLY'),
  cg('CG-QC', 'Quality inspection', 'LINE-ASSY', 'QC', 3, true, 'INSPECTION'),
];

function cg(
  number: string,
  description: string,
  line: string,
  prefix: string,
  workplaces: number,
  manual: boolean,
  qualification: string,
): CapacityGroupSpec {
  return { number, description, type: 'CAPACITY_GROUP', line, prefix, workplaces, manual, qualification };
}

export const WORKPLACE_COUNT = CAPACITY_GROUPS.reduce((sum, group) => sum + group.workplaces, 0);
export const MACHINE_COUNT = CAPACITY_GROUPS.filter((group) => !group.manual).reduce(
  (sum, group) => sum + group.workplaces,
  0,
);

/** The sensors of every machine's PLC, with the normal value and spread the simulator reports. */
export const SENSORS = [
  {
    tag: 'spindleSpeed',
    name: 'Spindle speed',
    physicalQuantity: 'ROTATIONAL_SPEED',
    unit: 'rpm',
    mean: 2400,
    spread: 150,
  },
  {
    tag: 'spindleTemperature',
    name: 'Spindle temperature',
    physicalQuantity: 'TEMPERATURE',
    unit: '°C',
    mean: 48,
    spread: 3,
  },
  { tag: 'power', name: 'Power draw', physicalQuantity: 'POWER', unit: 'kW', mean: 11, spread: 2 },
  {
    tag: 'vibration',
    name: 'Vibration velocity',
    physicalQuantity: 'VIBRATION',
    unit: 'mm/s',
    mean: 2.2,
    spread: 0.4,
  },
] as const;

/** Staff members per capacity group; each holds its group's qualification, some a second one. */
export const STAFF_PER_GROUP = 5;
export const STAFF_COUNT = CAPACITY_GROUPS.length * STAFF_PER_GROUP;

const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Chiara',
  'David',
  'Elif',
  'Felix',
  'Greta',
  'Hannes',
  'Ines',
  'Jonas',
  'Katrin',
  'Lukas',
  'Mara',
  'Nils',
  'Olga',
  'Paul',
  'Rosa',
  'Samir',
  'Tanja',
  'Uwe',
  'Vera',
  'Wei',
  'Yusuf',
  'Zoe',
];
const LAST_NAMES = [
  'Albrecht',
  'Becker',
  'Costa',
  'Demir',
  'Engel',
  'Fischer',
  'Graf',
  'Hoffmann',
  'Iwanow',
  'Jung',
  'Keller',
  'Lang',
  'Meyer',
  'Nowak',
  'Otto',
  'Peters',
  'Quast',
  'Richter',
  'Schulz',
  'Tran',
  'Ulrich',
  'Vogel',
  'Wagner',
  'Zimmer',
];
export const names = { first: FIRST_NAMES, last: LAST_NAMES };

/**
 * Three shifts a day (UTC), each with a 30-minute break in its middle: a shift is stored as two
 * shift periods with the break as the gap between them, so the API shows when the break is.
 */
export const SHIFT_PATTERN: readonly {
  name: string;
  model: string;
  /** Its entry of the master data kind shiftTypes (first, second, third shift). */
  shiftTypeId: string;
  startHour: number;
  breakHour: number;
}[] = [
  {
    name: 'Early shift',
    model: 'EARLY',
    shiftTypeId: 'B2000D67169941CCAD650A552EB1317C',
    startHour: 6,
    breakHour: 10,
  },
  {
    name: 'Late shift',
    model: 'LATE',
    shiftTypeId: 'C9647BD142D14350AE01240D81AD24B3',
    startHour: 14,
    breakHour: 18,
  },
  {
    name: 'Night shift',
    model: 'NIGHT',
    shiftTypeId: 'ECADE0BD0C5B4AE19C219D9B3282812D',
    startHour: 22,
    breakHour: 26,
  },
];
export const SHIFT_HOURS = 8;
export const BREAK_MINUTES = 30;
/** Days of shifts seeded: today and the next ones. */
export const SHIFT_DAYS = 3;

/** A product's routing: the capacity groups its operations run through, with per-unit times. */
export interface Routing {
  material: string;
  description: string;
  steps: readonly { group: string; description: string; secondsPerUnit: number; setupMinutes: number }[];
}

export const ROUTINGS: readonly Routing[] = [
  {
    material: 'M-1001',
    description: 'Drive shaft',
    steps: [
      { group: 'CG-TURN', description: 'Turn shaft', secondsPerUnit: 90, setupMinutes: 30 },
      { group: 'CG-MILL', description: 'Mill keyway', secondsPerUnit: 45, setupMinutes: 20 },
      { group: 'CG-GRIND', description: 'Grind bearing seats', secondsPerUnit: 60, setupMinutes: 25 },
      { group: 'CG-QC', description: 'Measure and release', secondsPerUnit: 20, setupMinutes: 5 },
    ],
  },
  {
    material: 'M-2040',
    description: 'Gear housing',
    steps: [
      { group: 'CG-MILL', description: 'Rough milling', secondsPerUnit: 180, setupMinutes: 45 },
      { group: 'CG-MILL', description: 'Finish milling', secondsPerUnit: 120, setupMinutes: 30 },
      { group: 'CG-ASSY', description: 'Insert bearings', secondsPerUnit: 90, setupMinutes: 10 },
      { group: 'CG-QC', description: 'Leak test', secondsPerUnit: 60, setupMinutes: 5 },
    ],
  },
  {
    material: 'M-3300',
    description: 'Pump unit',
    steps: [
      { group: 'CG-ASSY', description: 'Assemble pump', secondsPerUnit: 300, setupMinutes: 15 },
      { group: 'CG-QC', description: 'Run-in test', secondsPerUnit: 120, setupMinutes: 5 },
    ],
  },
  {
    material: 'M-4410',
    description: 'Flange',
    steps: [
      { group: 'CG-TURN', description: 'Turn flange', secondsPerUnit: 60, setupMinutes: 20 },
      { group: 'CG-QC', description: 'Visual inspection', secondsPerUnit: 10, setupMinutes: 0 },
    ],
  },
  {
    material: 'M-5120',
    description: 'Spindle',
    steps: [
      { group: 'CG-TURN', description: 'Turn spindle', secondsPerUnit: 150, setupMinutes: 35 },
      { group: 'CG-GRIND', description: 'Grind spindle', secondsPerUnit: 120, setupMinutes: 30 },
      { group: 'CG-QC', description: 'Measure runout', secondsPerUnit: 30, setupMinutes: 5 },
    ],
  },
];

/**
 * The production resources and tools (ERP category E: equipment) each operation of a capacity
 * group needs, by group, in the order the ERP lists them.
 */
export const PRODUCTION_RESOURCES: Readonly<
  Record<string, readonly { number: string; description: string }[]>
> = {
  'CG-TURN': [
    { number: 'PRT-HOLD-CNMG12', description: 'Turning insert holder CNMG 12' },
    { number: 'PRT-CHUCK-250', description: 'Three-jaw chuck 250 mm' },
  ],
  'CG-MILL': [
    { number: 'PRT-EM-12', description: 'End mill 12 mm carbide' },
    { number: 'PRT-VICE-160', description: 'Machine vice 160 mm' },
  ],
  'CG-GRIND': [
    { number: 'PRT-WHEEL-400', description: 'Grinding wheel 400 x 50' },
    { number: 'PRT-DRESS-01', description: 'Dressing diamond' },
  ],
  'CG-ASSY': [
    { number: 'PRT-PRESS-BRG', description: 'Bearing press tool' },
    { number: 'PRT-TORQUE-SET', description: 'Torque wrench set' },
  ],
  'CG-QC': [
    { number: 'PRT-MIC-2550', description: 'Micrometer 25-50 mm' },
    { number: 'PRT-GAUGE-SET', description: 'Gauge block set' },
  ],
};

export const TOOLS = [
  'Turning insert holder CNMG 12',
  'Boring bar 16 mm',
  'End mill 12 mm carbide',
  'Face mill 63 mm',
  'Keyway cutter 8 mm',
  'Grinding wheel 400 x 50',
  'Drill 8.5 mm',
  'Thread mill M10',
  'Torque wrench set',
  'Bearing press tool',
];

export const DOCUMENTS = [
  { folder: '/work-instructions', name: 'turning.md', description: 'Work instruction: CNC turning' },
  { folder: '/work-instructions', name: 'milling.md', description: 'Work instruction: CNC milling' },
  { folder: '/work-instructions', name: 'assembly.md', description: 'Work instruction: pump assembly' },
  { folder: '/quality', name: 'inspection-plan.md', description: 'Inspection plan for all products' },
  { folder: '/safety', name: 'machine-safety.md', description: 'Machine safety rules' },
];

/** Default operations of `bridge seed` and of the first-start demo (a few hundred orders). */
export const DEFAULT_SIZE = 1000;
