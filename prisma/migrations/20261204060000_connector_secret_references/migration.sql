-- The `${secret:NAME}` references a configuration apply wrote into a connector's headers and
-- client secret, sealed with the values they resolved to: an export writes the document's own
-- references again (not `<CONNECTOR>_<HEADER>`) while the stored value is still the one applied.
ALTER TABLE "connectors" ADD COLUMN "secret_refs" TEXT;
