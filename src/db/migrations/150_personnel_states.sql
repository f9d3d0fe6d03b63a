-- The states of a staff member's attendance (master data personnelStates, served at
-- /masterData/staffMemberStates): signed on or signed off, with the values a real FORCE Bridge
-- answers (docs/resources/masterData.md). The source shows one text per literal, seeded in en-GB.
INSERT INTO literals (id, translations) VALUES
  ('33268E80BC3849DE85E0F5129E0ABE76', '[{"language": "en-GB", "translation": "Assigned"}]'),
  ('98006D3A89424DC7B5E0B41DD6021AEF', '[{"language": "en-GB", "translation": "Assigned"}]'),
  ('1DD77C0AC28D462C934678A6EB65DDF2', '[{"language": "en-GB", "translation": "Unassigned"}]'),
  ('BC5C4E40CE564D0285BAB594F9BA2569', '[{"language": "en-GB", "translation": "Unassigned"}]')
ON CONFLICT (id) DO NOTHING;

INSERT INTO master_data_entries
  (kind, id, position, code, color, description_literal_id, short_description_literal_id, attributes)
VALUES
  ('personnelStates', 'SIGNED_ON', 1, '1', '#00CC84', '33268E80BC3849DE85E0F5129E0ABE76', '98006D3A89424DC7B5E0B41DD6021AEF', '{}'),
  ('personnelStates', 'SIGNED_OFF', 2, '2', '#C60A44', '1DD77C0AC28D462C934678A6EB65DDF2', 'BC5C4E40CE564D0285BAB594F9BA2569', '{}')
ON CONFLICT (kind, id) DO NOTHING;
