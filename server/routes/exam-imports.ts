/**
 * Exams in, for administrators: POST /admin/imports/exam (a Gradus exam JSON file or an IMS QTI
 * 3.0 package as the raw body; a dry run unless `?apply=1`) answers the plan
 * (contract/imports.ts ImportPlanResponse, kind 'exam'); GET /admin/exams lists every stored
 * version. Both need an administrator's staff token (a proctor: 403 FORBIDDEN).
 *
 * The body is a zip when its first bytes say so (whatever the Content-Type); a body declared
 * `application/zip` that is not one is refused 'bad_zip'. A body over MAX_EXAM_FILE_BYTES is
 * refused 'too_large' unread (judged by Content-Length, else counted as it arrives).
 */
import { Hono } from 'hono';
import { ExamImportQuerySchema, MAX_EXAM_FILE_BYTES, type ExamsResponse } from '../../contract/imports.ts';
import { importExam, listExams } from '../imports/exams/apply.ts';
import { looksLikeZip } from '../imports/exams/package.ts';
import { planResponse, type ImportResult } from '../imports/plan.ts';
import type { AppDeps, AppEnv } from '../http/env.ts';
import { limitBody, requireAdmin, requireStaff } from '../http/middleware.ts';
import { parseWith } from '../http/validate.ts';

/** The path prefix app.ts leaves to this router's own body limit. */
export const EXAM_IMPORT_PATH = '/admin/imports/exam';

export function examImportRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const admin = [requireStaff(deps), requireAdmin()] as const;

  const tooLarge: ImportResult = {
    kind: 'exam',
    applied: false,
    rows: [{ row: null, key: '', outcome: 'refuse', problems: [{ column: null, reason: 'too_large', value: `over ${MAX_EXAM_FILE_BYTES} bytes` }] }],
  };

  routes.post(
    EXAM_IMPORT_PATH,
    ...admin,
    limitBody({ maxSize: MAX_EXAM_FILE_BYTES, onError: (c) => c.json(planResponse(tooLarge, c.get('now')), 200) }),
    async (c) => {
      const now = c.get('now');
      const query = parseWith(ExamImportQuerySchema, c.req.query(), 'query');
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const declaredZip = /zip/i.test(c.req.header('content-type') ?? '');
      let result: ImportResult;
      if (declaredZip && bytes.length > 0 && !looksLikeZip(bytes)) {
        result = { kind: 'exam', applied: false, rows: [{ row: null, key: '', outcome: 'refuse', problems: [{ column: null, reason: 'bad_zip' }] }] };
      } else {
        result = await importExam(deps.db, bytes, {
          apply: query.apply === '1',
          qti: { subject: query.subject, level: query.level, levelName: query.level_name },
          now,
          staffId: c.get('staff').staffId,
          reason: 'exam import (console)',
        });
      }
      return c.json(planResponse(result, now), 200);
    },
  );

  routes.get('/admin/exams', ...admin, async (c) => {
    const now = c.get('now');
    const response: ExamsResponse = { exams: await listExams(deps.db), server_time: now.toISOString() };
    return c.json(response, 200);
  });

  return routes;
}
