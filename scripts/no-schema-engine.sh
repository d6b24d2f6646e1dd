#!/bin/sh
echo "native schema engine unavailable here; use npm run db:migrate" >&2
exit 1
