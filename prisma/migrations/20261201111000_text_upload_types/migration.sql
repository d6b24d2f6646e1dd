-- Uploads are typed from the mime-types registry now. Five types the earlier hand-kept table gave
-- text uploads by their extension carry no charset in that registry, so they would stop reading
-- back as text ("A text MIME type comes back as text"); such uploads are typed text/plain today,
-- and the rows stored before are brought in line.
UPDATE "files"
SET "mime_type" = 'text/plain'
WHERE "mime_type" IN ('application/jsonl', 'application/x-ndjson', 'application/toml', 'application/sql', 'application/rtf');
