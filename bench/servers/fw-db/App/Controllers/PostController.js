// App/Controllers/PostController.ts, compiled: a page of the blog, with the models' eager loading.
import { Response } from 'fw-runtime';
import { Post } from '../Models/Post.js';
export class PostController {
    /** GET /posts: the 50 latest published posts, each with its author and its comments. */
    async index() {
        const posts = await Post.query()
            .published()
            .with('author')
            .with('comments', (comments) => comments.orderBy('id'))
            .orderBy('id', 'desc')
            .limit(50)
            .execute();
        return Response.json(posts);
    }
}
