#!/bin/sh
# usage: fitcv.sh CACHE FEATURE
NEWSDESK_WORD_VECTORS=/tmp/seed34/vectors nice -n 10 npm run --silent fit-ranking -- --cache "$1" --ranking-from src/search/ranking-model.json --ranking-free "$2" --confidence-from src/search/ranking-model.json --dry-run 2>&1 >/dev/null | sed -n '/cross-validation of/,/current  hit@5/p'
