-- Machines (docs/resources/machines.md): a machine workplace's machine states and their reasons
-- (machine state details), and the quality types and details quantities are booked with. The
-- machine state history is the workplace's operating-state history: each record also keeps the
-- machine state details and the remark it was set or corrected with. Output quantities keep the
-- quality detail they were booked with.
ALTER TABLE recorded_operating_states
  ADD COLUMN IF NOT EXISTS machine_state_detail_ids jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN IF NOT EXISTS remark text;
ALTER TABLE recorded_output_quantities
  ADD COLUMN IF NOT EXISTS quality_detail_id text,
  ADD COLUMN IF NOT EXISTS remark text;
ALTER TABLE recorded_workplace_output_quantities
  ADD COLUMN IF NOT EXISTS quality_detail_id text;

-- The master data, with the values a real server shows. The attributes carry the rules: the
-- operating state a machine state (or one of its details) puts the workplace in, and a machine
-- state's workplace state, which gives the machine state of a workplace whose operating state no
-- machine state names.
INSERT INTO literals (id, translations) VALUES
  ('1409AFE6E31A5D779293007AF5702F2D', '[{"language": "en-GB", "translation": "Stoppage"}, {"language": "de-DE", "translation": "Stillstand"}, {"language": "zh-CN", "translation": "停机"}]'),
  ('E1EBBE7028675B13B014CC3B16C43B2F', '[{"language": "en-GB", "translation": "Stoppage"}, {"language": "de-DE", "translation": "Stillstand"}, {"language": "zh-CN", "translation": "停机"}]'),
  ('6E68B10659DB53D9A5B91A3AE03A0D05', '[{"language": "en-GB", "translation": "Production"}, {"language": "de-DE", "translation": "Produktion"}, {"language": "zh-CN", "translation": "生产"}]'),
  ('3B8D44033F7E5091824A6661838CB3E7', '[{"language": "en-GB", "translation": "Production"}, {"language": "de-DE", "translation": "Produktion"}, {"language": "zh-CN", "translation": "生产"}]'),
  ('BA30A80A89415329A7A2652BA730F386', '[{"language": "en-GB", "translation": "Setup"}, {"language": "de-DE", "translation": "Rüsten"}, {"language": "zh-CN", "translation": "换型调试"}]'),
  ('BECC7634BF39593486B6264E7029F607', '[{"language": "en-GB", "translation": "Setup"}, {"language": "de-DE", "translation": "Rüsten"}, {"language": "zh-CN", "translation": "换型"}]'),
  ('D738A8C5174F5881B75D38F092FADC2A', '[{"language": "en-GB", "translation": "Production"}, {"language": "de-DE", "translation": "Produktion"}, {"language": "zh-CN", "translation": "生产"}]'),
  ('098C1BDE43235244AFE7993B13664549', '[{"language": "en-GB", "translation": "Production"}, {"language": "de-DE", "translation": "Produktion"}, {"language": "zh-CN", "translation": "生产"}]'),
  ('772F227B5E8E56D28035B9C90F57639E', '[{"language": "en-GB", "translation": "Waiting for material"}, {"language": "de-DE", "translation": "Warten auf Material"}, {"language": "zh-CN", "translation": "等待物料"}]'),
  ('0F00E9F79D9B510682B73CFEC3119C4A', '[{"language": "en-GB", "translation": "Material"}, {"language": "de-DE", "translation": "Material"}, {"language": "zh-CN", "translation": "待料"}]'),
  ('727BBC9D89C35FBBBFC2600709F7DFB4', '[{"language": "en-GB", "translation": "Setup"}, {"language": "de-DE", "translation": "Rüsten"}, {"language": "zh-CN", "translation": "换型调试"}]'),
  ('AA13846FA977557A925FBAA8539CCA8C', '[{"language": "en-GB", "translation": "Setup"}, {"language": "de-DE", "translation": "Rüsten"}, {"language": "zh-CN", "translation": "换型"}]'),
  ('E611946B10B25DDCBF16EE95F45B6899', '[{"language": "en-GB", "translation": "Malfunction"}, {"language": "de-DE", "translation": "Störung"}, {"language": "zh-CN", "translation": "故障"}]'),
  ('5736E6F2A48B5F5DBE31D21DA7A1F29F', '[{"language": "en-GB", "translation": "Fault"}, {"language": "de-DE", "translation": "Störung"}, {"language": "zh-CN", "translation": "故障"}]'),
  ('716A1B67B1DA58F98226FF3537562C2F', '[{"language": "en-GB", "translation": "Planned maintenance"}, {"language": "de-DE", "translation": "Geplante Wartung"}, {"language": "zh-CN", "translation": "计划维护"}]'),
  ('5CCB9D64EB7F5FF190DAF193BFDA4EB6', '[{"language": "en-GB", "translation": "Maint."}, {"language": "de-DE", "translation": "Wartung"}, {"language": "zh-CN", "translation": "维护"}]'),
  ('35C821E45B4A545C8355C11590EC4B93', '[{"language": "en-GB", "translation": "Break"}, {"language": "de-DE", "translation": "Pause"}, {"language": "zh-CN", "translation": "休息"}]'),
  ('446B5D97F778577B89D318DA063B4AD7', '[{"language": "en-GB", "translation": "Break"}, {"language": "de-DE", "translation": "Pause"}, {"language": "zh-CN", "translation": "休息"}]'),
  ('F1065A9244F952FAAAB9C7E46F18BDF4', '[{"language": "en-GB", "translation": "Yield"}, {"language": "de-DE", "translation": "Gutmenge"}, {"language": "zh-CN", "translation": "良品"}]'),
  ('E88C2E31F3A05E2D9DD8EB5DA1DDE104', '[{"language": "en-GB", "translation": "YIELD"}, {"language": "de-DE", "translation": "GUT"}, {"language": "zh-CN", "translation": "良品"}]'),
  ('59872D9073195A4A904CD73C734C4433', '[{"language": "en-GB", "translation": "Scrap"}, {"language": "de-DE", "translation": "Ausschuss"}, {"language": "zh-CN", "translation": "废品"}]'),
  ('E22CA00A90065D9B8106FC3007BCE81D', '[{"language": "en-GB", "translation": "SCRAP"}, {"language": "de-DE", "translation": "AUSSCHUSS"}, {"language": "zh-CN", "translation": "废品"}]'),
  ('76B0A3BAE89A5353BEE9886C960745C4', '[{"language": "en-GB", "translation": "Rework"}, {"language": "de-DE", "translation": "Nacharbeit"}, {"language": "zh-CN", "translation": "返工"}]'),
  ('98863FF8447954099A5FBCE4F823C482', '[{"language": "en-GB", "translation": "REWORK"}, {"language": "de-DE", "translation": "NACHARBEIT"}, {"language": "zh-CN", "translation": "返工"}]'),
  ('507587D0BBB052F2923D979508B21BBF', '[{"language": "en-GB", "translation": "Yield quantity"}, {"language": "de-DE", "translation": "Gutmenge"}, {"language": "zh-CN", "translation": "良品数量"}]'),
  ('770DB221C1FF5D5EADB25CF352A43FC8', '[{"language": "en-GB", "translation": "YIELD"}, {"language": "de-DE", "translation": "GUT"}, {"language": "zh-CN", "translation": "良品"}]'),
  ('FD1E057E84FF55769D6815ECA9FA158C', '[{"language": "en-GB", "translation": "Surface"}, {"language": "de-DE", "translation": "Oberfläche"}, {"language": "zh-CN", "translation": "表面"}]'),
  ('EA8FC04EE8B450DB9F92C2ADAC3A161B', '[{"language": "en-GB", "translation": "S1"}, {"language": "de-DE", "translation": "S1"}, {"language": "zh-CN", "translation": "S1"}]'),
  ('157AA7EC1E8351FDAE688320B6647388', '[{"language": "en-GB", "translation": "Geometry"}, {"language": "de-DE", "translation": "Geometrie"}, {"language": "zh-CN", "translation": "几何"}]'),
  ('AA860B3B4D525B25AC35A1F07BFA8864', '[{"language": "en-GB", "translation": "R2"}, {"language": "de-DE", "translation": "R2"}, {"language": "zh-CN", "translation": "R2"}]')
ON CONFLICT (id) DO NOTHING;

INSERT INTO master_data_entries
  (kind, id, position, code, color, description_literal_id, short_description_literal_id, attributes)
VALUES
  ('machineStates', 'DOWNTIME', 1, '1', '#C60A44', '1409AFE6E31A5D779293007AF5702F2D', 'E1EBBE7028675B13B014CC3B16C43B2F', '{"operatingStateId": "6b5e3e20-94f4-55ee-9a6e-eb7a3eb4f379", "workplaceStateId": "DOWNTIME"}'),
  ('machineStates', 'PRODUCTION', 2, '2', '#00CC84', '6E68B10659DB53D9A5B91A3AE03A0D05', '3B8D44033F7E5091824A6661838CB3E7', '{"operatingStateId": "b6ec1cd6-d254-5106-99ea-43edce9543dd", "workplaceStateId": "PRODUCTION"}'),
  ('machineStates', 'SETUP', 3, '3', '#AA7900', 'BA30A80A89415329A7A2652BA730F386', 'BECC7634BF39593486B6264E7029F607', '{"operatingStateId": "4e497aff-ed65-5dc0-8004-3c0a8fa518e1"}'),
  ('machineStateDetails', '2C60FD5CBF104E7E9039C1ED630D108A', 1, '000', '#00CC84', 'D738A8C5174F5881B75D38F092FADC2A', '098C1BDE43235244AFE7993B13664549', '{"machineStateId": "PRODUCTION", "operatingStateId": "b6ec1cd6-d254-5106-99ea-43edce9543dd", "customerCode": null, "isRecodable": false, "isSplittable": false, "isAnnotatable": false}'),
  ('machineStateDetails', '3F0A1C5E8B2D4E6F9A7B1C3D5E7F9A0B', 2, '010', '#F9A825', '772F227B5E8E56D28035B9C90F57639E', '0F00E9F79D9B510682B73CFEC3119C4A', '{"machineStateId": "DOWNTIME", "operatingStateId": "3d2e0b34-7640-51ba-8d4a-179431e31693", "customerCode": null, "isRecodable": false, "isSplittable": false, "isAnnotatable": false}'),
  ('machineStateDetails', '18B9C0BC3D5F49268C0CB801651FB119', 3, '020', '#AA7900', '727BBC9D89C35FBBBFC2600709F7DFB4', 'AA13846FA977557A925FBAA8539CCA8C', '{"machineStateId": "SETUP", "operatingStateId": "4e497aff-ed65-5dc0-8004-3c0a8fa518e1", "customerCode": null, "isRecodable": false, "isSplittable": false, "isAnnotatable": false}'),
  ('machineStateDetails', '7C4E2A9B1D3F4B5A8E6C0D2F4A6B8C1E', 4, '110', '#C62828', 'E611946B10B25DDCBF16EE95F45B6899', '5736E6F2A48B5F5DBE31D21DA7A1F29F', '{"machineStateId": "DOWNTIME", "operatingStateId": "70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa", "customerCode": null, "isRecodable": false, "isSplittable": false, "isAnnotatable": false}'),
  ('machineStateDetails', '9E1B3D5F7A2C4E6B8D0F1A3C5E7B9D2F', 5, '410', '#6A1B9A', '716A1B67B1DA58F98226FF3537562C2F', '5CCB9D64EB7F5FF190DAF193BFDA4EB6', '{"machineStateId": "DOWNTIME", "operatingStateId": "62540d52-ec93-52fc-8c1e-cbca9610b7c3", "customerCode": null, "isRecodable": false, "isSplittable": false, "isAnnotatable": false}'),
  ('machineStateDetails', 'B68AD4F440224225B6606B4373D5C2F4', 6, '993', '#B6BABF', '35C821E45B4A545C8355C11590EC4B93', '446B5D97F778577B89D318DA063B4AD7', '{"machineStateId": "DOWNTIME", "operatingStateId": "fdf23d49-794d-5de0-8422-86df0d65641a", "customerCode": null, "isRecodable": false, "isSplittable": false, "isAnnotatable": false}'),
  ('qualityTypes', 'YIELD', 1, 'YIELD', '#00CC84', 'F1065A9244F952FAAAB9C7E46F18BDF4', 'E88C2E31F3A05E2D9DD8EB5DA1DDE104', '{}'),
  ('qualityTypes', 'SCRAP', 2, 'SCRAP', '#C60A44', '59872D9073195A4A904CD73C734C4433', 'E22CA00A90065D9B8106FC3007BCE81D', '{}'),
  ('qualityTypes', 'REWORK', 3, 'REWORK', '#FFB500', '76B0A3BAE89A5353BEE9886C960745C4', '98863FF8447954099A5FBCE4F823C482', '{}'),
  ('qualityDetails', '5edd7d8a964548cfb5b815e72745157c', 1, 'Y', '#00CC84', '507587D0BBB052F2923D979508B21BBF', '770DB221C1FF5D5EADB25CF352A43FC8', '{"qualityTypeId": "YIELD"}'),
  ('qualityDetails', '2121dab74e2844e9a890d19c861b5ac3', 2, 'S1', '#C60A44', 'FD1E057E84FF55769D6815ECA9FA158C', 'EA8FC04EE8B450DB9F92C2ADAC3A161B', '{"qualityTypeId": "SCRAP"}'),
  ('qualityDetails', '874ba6d8d5b44ac4a727b7393328eec3', 3, 'R2', '#FFDD00', '157AA7EC1E8351FDAE688320B6647388', 'AA860B3B4D525B25AC35A1F07BFA8864', '{"qualityTypeId": "REWORK"}')
ON CONFLICT (kind, id) DO NOTHING;
