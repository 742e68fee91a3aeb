// App/Models/Comment.ts, compiled: a comment on a post.
import { Model } from 'fw-runtime';
export class Comment extends Model('comments', { timestamps: false }) {
}
