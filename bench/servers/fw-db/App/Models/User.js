// App/Models/User.ts, compiled: the blog's authors.
import { Model } from 'fw-runtime';
export class User extends Model('users', { timestamps: false }) {
}
