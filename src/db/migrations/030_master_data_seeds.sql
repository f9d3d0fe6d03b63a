-- The master data kinds the v3 API serves from configuration rather than records, with the
-- values a real FORCE Bridge answers (docs/resources/masterData.md): operating state classes,
-- operation production states, shift types, customer specific settings and ERP contexts, and the
-- literals their descriptions are. A text the source shows in one language only is seeded in
-- en-GB; a literal whose texts are unknown has no translations. Kinds seeded by other families
-- (machine states, quality details, ticket states, document states) come in their migrations.
INSERT INTO literals (id, translations) VALUES
  ('D2ED458DD3C242B8A07C26DD0B04B412', '[{"language": "de-DE", "translation": "Freie Kapazitäten"}, {"language": "en-US", "translation": "Free Capcities"}, {"language": "en-GB", "translation": "Free Capcities"}]'),
  ('6343ECE4A52A4367B55839813C2C2B05', '[{"language": "de-DE", "translation": "Freie Kapazitäten"}, {"language": "en-US", "translation": "Free Capcities"}, {"language": "en-GB", "translation": "Free Capcities"}]'),
  ('B8FE191CC6C64C3EABE003BE25F65759', '[{"language": "en-GB", "translation": "Maintenance Downtimes"}]'),
  ('96B693BE22B54A5D8048B05A78893824', '[{"language": "en-GB", "translation": "Maintenance Downtimes"}]'),
  ('B52BC664382B412F9A5B63851BE15AC8', '[{"language": "en-GB", "translation": "Organizational Downtimes"}]'),
  ('CC7DD56CFF0B4DB1B7E4C721CE055399', '[{"language": "en-GB", "translation": "Organizational Downtimes"}]'),
  ('2D4831C52A54441CA1A397F0F5616FA8', '[{"language": "en-GB", "translation": "Stoppage"}]'),
  ('E925E501586341828736CD0A9F8CAFF7', '[{"language": "en-GB", "translation": "Stoppage"}]'),
  ('3015366D4017480193948584A41B443A', '[{"language": "en-GB", "translation": "Production"}]'),
  ('F65E750CF1DC4F419D8832330D99B9AF', '[{"language": "en-GB", "translation": "Production"}]'),
  ('CFE58B7E9A754947AE66E37A9A8F2D51', '[{"language": "pl-PL", "translation": "First shift"}, {"language": "de-DE", "translation": "Frühschicht"}, {"language": "hu-HU", "translation": "First shift"}, {"language": "en-US", "translation": "First shift"}, {"language": "es-ES", "translation": "Turno de la mañana"}, {"language": "fr-FR", "translation": "Équipe du matin"}, {"language": "zh-CN", "translation": "早班"}, {"language": "ja-JP", "translation": "First shift"}, {"language": "en-GB", "translation": "First shift"}]'),
  ('38342549F1B64BB2A39D56A2B7EB30AC', '[{"language": "pl-PL", "translation": "F"}, {"language": "de-DE", "translation": "F"}, {"language": "hu-HU", "translation": "F"}, {"language": "en-US", "translation": "F"}, {"language": "es-ES", "translation": "M"}, {"language": "fr-FR", "translation": "M"}, {"language": "zh-CN", "translation": "早班"}, {"language": "ja-JP", "translation": "F"}, {"language": "en-GB", "translation": "F"}]'),
  ('C9305C10E47249C99C8D44BAFB13C027', '[{"language": "pl-PL", "translation": "Second shift"}, {"language": "de-DE", "translation": "Spätschicht"}, {"language": "hu-HU", "translation": "Second shift"}, {"language": "en-US", "translation": "Second shift"}, {"language": "es-ES", "translation": "Turno de la tarde"}, {"language": "fr-FR", "translation": "Équipe du soir"}, {"language": "zh-CN", "translation": "中班"}, {"language": "ja-JP", "translation": "Second shift"}, {"language": "en-GB", "translation": "Second shift"}]'),
  ('F9FCA6D85F0C4B6A806F1F7CEBD29338', '[{"language": "pl-PL", "translation": "S"}, {"language": "de-DE", "translation": "S"}, {"language": "hu-HU", "translation": "S"}, {"language": "en-US", "translation": "S"}, {"language": "es-ES", "translation": "T"}, {"language": "fr-FR", "translation": "S"}, {"language": "zh-CN", "translation": "中班"}, {"language": "ja-JP", "translation": "S"}, {"language": "en-GB", "translation": "S"}]'),
  ('FE9D5A6CEEAA433895774E7E9D41F493', '[{"language": "pl-PL", "translation": "Nonworking shift 9"}, {"language": "de-DE", "translation": "Freischicht 9"}, {"language": "hu-HU", "translation": "Nonworking shift 9"}, {"language": "en-US", "translation": "Nonworking shift 9"}, {"language": "es-ES", "translation": "Turno libre 9"}, {"language": "fr-FR", "translation": "jour libre 9"}, {"language": "zh-CN", "translation": "第9空余班组"}, {"language": "ja-JP", "translation": "Nonworking shift 9"}, {"language": "en-GB", "translation": "Nonworking shift 9"}]'),
  ('1CCEFDC4706249D1B73DB941FF9660EF', '[{"language": "pl-PL", "translation": "FS9"}, {"language": "de-DE", "translation": "FS9"}, {"language": "hu-HU", "translation": "FS9"}, {"language": "en-US", "translation": "FS9"}, {"language": "es-ES", "translation": "FS9"}, {"language": "fr-FR", "translation": "FS9"}, {"language": "zh-CN", "translation": "FS9"}, {"language": "ja-JP", "translation": "FS9"}, {"language": "en-GB", "translation": "FS9"}]'),
  ('E6CC1739C93446C598D3EECCA416E5F4', '[{"language": "pl-PL", "translation": "Nonworking shift 1"}, {"language": "de-DE", "translation": "Freischicht 1"}, {"language": "hu-HU", "translation": "Nonworking shift 1"}, {"language": "en-US", "translation": "Nonworking shift 1"}, {"language": "es-ES", "translation": "Turno libre 1"}, {"language": "fr-FR", "translation": "jour libre 1"}, {"language": "zh-CN", "translation": "第1空余班组"}, {"language": "ja-JP", "translation": "Nonworking shift 1"}, {"language": "en-GB", "translation": "Nonworking shift 1"}]'),
  ('EB9C52D9FF3E4A33855826A110A69680', '[{"language": "pl-PL", "translation": "FS1"}, {"language": "de-DE", "translation": "FS1"}, {"language": "hu-HU", "translation": "FS1"}, {"language": "en-US", "translation": "FS1"}, {"language": "es-ES", "translation": "FS1"}, {"language": "fr-FR", "translation": "FS1"}, {"language": "zh-CN", "translation": "FS1"}, {"language": "ja-JP", "translation": "FS1"}, {"language": "en-GB", "translation": "FS1"}]'),
  ('C96F0ED2144648848CCCE467B8426FE5', '[{"language": "en-GB", "translation": "Third shift"}]'),
  ('17ECF52912334FDEBE0DA19AEC75EE5C', '[{"language": "en-GB", "translation": "T"}]'),
  ('68F8B5E6246D4609B24F2FC878CAD29F', '[]'),
  ('2A7CA4CF24C74E919ACEB846BFEE1312', '[]')
ON CONFLICT (id) DO NOTHING;

INSERT INTO master_data_entries
  (kind, id, position, code, color, description_literal_id, short_description_literal_id, attributes)
VALUES
  ('operatingStateClasses', '29ADD1E980304CD2AE2E381B929AAFF7', 1, 'FREECAPA_SC', '#B6BABF', 'D2ED458DD3C242B8A07C26DD0B04B412', '6343ECE4A52A4367B55839813C2C2B05', '{}'),
  ('operatingStateClasses', '9478019210E0423AAC7C4ABC147CD24E', 2, 'MAINTENANCE_SC', '#660011', 'B8FE191CC6C64C3EABE003BE25F65759', '96B693BE22B54A5D8048B05A78893824', '{}'),
  ('operatingStateClasses', '05004E227AE642709B27BEF620E2FED0', 3, 'ORGANIZATIONAL_SC', '#FFB500', 'B52BC664382B412F9A5B63851BE15AC8', 'CC7DD56CFF0B4DB1B7E4C721CE055399', '{}'),
  ('operationProductionStates', 'DOWNTIME', 1, '1', '#C60A44', '2D4831C52A54441CA1A397F0F5616FA8', 'E925E501586341828736CD0A9F8CAFF7', '{}'),
  ('operationProductionStates', 'PRODUCTION', 2, '2', '#00CC84', '3015366D4017480193948584A41B443A', 'F65E750CF1DC4F419D8832330D99B9AF', '{}'),
  ('shiftTypes', 'B2000D67169941CCAD650A552EB1317C', 1, NULL, NULL, 'CFE58B7E9A754947AE66E37A9A8F2D51', '38342549F1B64BB2A39D56A2B7EB30AC', '{"isWorkingShift": true}'),
  ('shiftTypes', 'C9647BD142D14350AE01240D81AD24B3', 2, NULL, NULL, 'C9305C10E47249C99C8D44BAFB13C027', 'F9FCA6D85F0C4B6A806F1F7CEBD29338', '{"isWorkingShift": true}'),
  ('shiftTypes', '5DF951ECF83D4ACA8D6DB702341E990A', 3, NULL, NULL, 'FE9D5A6CEEAA433895774E7E9D41F493', '1CCEFDC4706249D1B73DB941FF9660EF', '{"isWorkingShift": false}'),
  ('shiftTypes', '1D4120CC185346F7A6021845C09EB824', 4, NULL, NULL, 'E6CC1739C93446C598D3EECCA416E5F4', 'EB9C52D9FF3E4A33855826A110A69680', '{"isWorkingShift": false}'),
  ('shiftTypes', 'ECADE0BD0C5B4AE19C219D9B3282812D', 5, NULL, NULL, 'C96F0ED2144648848CCCE467B8426FE5', '17ECF52912334FDEBE0DA19AEC75EE5C', '{"isWorkingShift": true}'),
  ('shiftTypes', '3292E94997524721B010BBE3BAE87717', 6, NULL, NULL, '68F8B5E6246D4609B24F2FC878CAD29F', '2A7CA4CF24C74E919ACEB846BFEE1312', '{"isWorkingShift": true}'),
  ('customerSpecificSettings', 'b', 1, NULL, NULL, NULL, NULL, '{"topic": "123", "value": "vaöc", "description": "adasd"}'),
  ('customerSpecificSettings', 'id', 2, NULL, NULL, NULL, NULL, '{"topic": "top", "value": "va", "description": "desc"}'),
  ('erpContexts', 'BF0268C3CAFD4430B85485FB35FEE00D', 1, NULL, NULL, NULL, NULL, '{"type": "PLANT", "identifier1": "100", "identifier2": "9000", "identifier3": "9000", "systemNumber": "1"}'),
  ('erpContexts', '4ca712a78a2b4cf58fa5a79544707e37', 2, NULL, NULL, NULL, NULL, '{"type": "PERSONNEL_AREA", "identifier1": "100", "identifier2": "9000", "identifier3": "9000", "systemNumber": "1"}')
ON CONFLICT (kind, id) DO NOTHING;
