import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import { listOp, showOp } from '../items.ts';
import { backlogLine } from '../lines.ts';

export const backlogList = listOp('backlog', BACKLOG_STATUSES, backlogLine);

export const backlogShow = showOp<BacklogItem>('backlog');
